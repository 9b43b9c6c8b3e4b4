/**
 * Every IPv6 form that embeds an IPv4 address, each with a refused IPv4 host inside (refused
 * as that host's kind) and, where the form is usable at all, a public one (allowed). The same
 * table runs at the URL rule (test/unit/services/domain/webhook-address.test.ts) and at the delivery agents' DNS lookup in
 * test/integration/indexer/webhooks/address-guard.test.ts; the unit test checks the URL rule with it.
 */
export const EMBEDDED_IPV4_CASES: { range: string; refused: [string, string][]; allowed: string[] }[] = [
  {
    range: 'IPv4-mapped ::ffff:0:0/96',
    refused: [
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:a9fe:a9fe', 'link_local'],
      ['::ffff:10.0.0.8', 'private'],
    ],
    allowed: ['::ffff:8.8.8.8'],
  },
  {
    range: 'IPv4-translated ::ffff:0:0:0/96 (SIIT)',
    refused: [
      ['::ffff:0:7f00:1', 'loopback'],
      ['::ffff:0:a9fe:a9fe', 'link_local'],
      ['::ffff:0:c0a8:101', 'private'],
      ['::ffff:0:0:0', 'reserved'],
      ['::ffff:0:e000:1', 'reserved'],
    ],
    allowed: ['::ffff:0:808:808'],
  },
  {
    range: 'IPv4-compatible ::/96 (deprecated: refused whole)',
    refused: [
      ['::7f00:1', 'loopback'],
      ['::a00:1', 'private'],
      ['::808:808', 'reserved'],
    ],
    allowed: [],
  },
  {
    range: 'NAT64 well-known 64:ff9b::/96',
    refused: [
      ['64:ff9b::7f00:1', 'loopback'],
      ['64:ff9b::a9fe:a9fe', 'link_local'],
      ['64:ff9b::a00:1', 'private'],
    ],
    allowed: ['64:ff9b::808:808'],
  },
  {
    range: 'NAT64 local-use 64:ff9b:1::/48 (refused whole)',
    refused: [
      ['64:ff9b:1::7f00:1', 'private'],
      ['64:ff9b:1::808:808', 'private'],
    ],
    allowed: [],
  },
  {
    range: '6to4 2002::/16',
    refused: [
      ['2002:7f00:1::1', 'loopback'],
      ['2002:a9fe:a9fe::1', 'link_local'],
      ['2002:c0a8:101::1', 'private'],
      ['2002:c000:200::1', 'reserved'],
    ],
    allowed: ['2002:808:808::1'],
  },
  {
    range: 'Teredo 2001::/32 (refused whole)',
    refused: [
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'reserved'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ],
    allowed: [],
  },
  {
    range: 'ISATAP interface id ::0:5efe:a.b.c.d / ::200:5efe:a.b.c.d',
    refused: [
      ['2606:4700:1:2:0:5efe:7f00:1', 'loopback'],
      ['2606:4700:1:2:200:5efe:a00:1', 'private'],
      ['2606:4700:1:2::5efe:a9fe:a9fe', 'link_local'],
      ['fe80::5efe:808:808', 'link_local'],
    ],
    allowed: ['2606:4700:1:2:200:5efe:808:808'],
  },
];
