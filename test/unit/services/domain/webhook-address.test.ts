import { describe, expect, it } from 'vitest';
import { addressPolicy, classifyAddress, embeddedIPv4, isAllowedAddress } from '../../../../services/domain/webhook-address.ts';
import { checkWebhookUrl } from '../../../../services/domain/webhook-url.ts';
import { EMBEDDED_IPV4_CASES } from '../../../helpers/embedded-ipv4.ts';

// No delivery to our own network in production, judged on the address.

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fc00::1', 'private'],
    ['fec0::1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['0.0.0.0', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::', 'reserved'],
    ['ff02::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['not an address', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('judges an IPv6 address that carries an IPv4 one as that IPv4 host', () => {
    // IPv4-mapped, in both spellings, IPv4-compatible, NAT64 and 6to4.
    expect(embeddedIPv4('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIPv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIPv4('::ffff:a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIPv4('::10.1.2.3')).toBe('10.1.2.3');
    expect(embeddedIPv4('64:ff9b::c0a8:101')).toBe('192.168.1.1');
    expect(embeddedIPv4('2002:0a00:0001::1')).toBe('10.0.0.1');
    expect(embeddedIPv4('2606:4700::1111')).toBeNull();
    expect(classifyAddress('::ffff:127.0.0.1')).toBe('loopback');
    expect(classifyAddress('::ffff:a9fe:a9fe')).toBe('link_local');
    expect(classifyAddress('::ffff:10.0.0.8')).toBe('private');
    expect(classifyAddress('64:ff9b::a00:1')).toBe('private');
    expect(classifyAddress('2002:c0a8:101::1')).toBe('private');
    expect(classifyAddress('::ffff:8.8.8.8')).toBe('public');
    expect(classifyAddress('64:ff9b::808:808')).toBe('public');
  });
});

describe('IPv6 forms that carry an IPv4 address', () => {
  for (const { range, refused, allowed } of EMBEDDED_IPV4_CASES) {
    it(`${range}: judged as the IPv4 host inside`, () => {
      for (const [address, kind] of refused) {
        expect(classifyAddress(address), address).toBe(kind);
        expect(isAllowedAddress(address, 'public_only'), address).toBe(false);
        const checked = checkWebhookUrl(`http://[${address}]:8080/hooks`, 'public_only');
        expect(checked.ok, address).toBe(false);
        if (!checked.ok) expect(checked.problem).toMatch(new RegExp(`^must not point at an? ${kind.replace('_', '-')} address \\(`));
      }
      for (const address of allowed) {
        expect(classifyAddress(address), address).toBe('public');
        expect(checkWebhookUrl(`https://[${address}]/hooks`, 'public_only').ok, address).toBe(true);
      }
    });
  }

  it('refuses the SIIT loopback URL that production accepted: http://[::ffff:0:7f00:1]/', () => {
    expect(checkWebhookUrl('http://[::ffff:0:7f00:1]/', 'public_only')).toEqual({
      ok: false,
      problem: 'must not point at a loopback address (::ffff:0:7f00:1)',
    });
    // Outside production it is loopback like 127.0.0.1, and allowed as 127.0.0.1 is.
    expect(checkWebhookUrl('http://[::ffff:0:7f00:1]/', 'public_and_loopback').ok).toBe(true);
  });

  it('leaves :: and ::1 their own kinds rather than IPv4-compatible 0.0.0.0 and 0.0.0.1', () => {
    expect(embeddedIPv4('::')).toBeNull();
    expect(embeddedIPv4('::1')).toBeNull();
    expect(classifyAddress('::1')).toBe('loopback');
    expect(classifyAddress('::')).toBe('reserved');
  });
});

describe('the policy', () => {
  it('is public only in production; loopback is allowed in development and tests', () => {
    expect(addressPolicy('production')).toBe('public_only');
    expect(addressPolicy('development')).toBe('public_and_loopback');
    expect(addressPolicy('test')).toBe('public_and_loopback');
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect(isAllowedAddress(a, 'public_only'), a).toBe(false);
      expect(isAllowedAddress(a, 'public_and_loopback'), a).toBe(true);
    }
    for (const a of ['10.0.0.1', '169.254.169.254', 'fe80::1', '0.0.0.0', '::ffff:192.168.0.1'])
      expect(isAllowedAddress(a, 'public_and_loopback'), a).toBe(false);
    expect(isAllowedAddress('8.8.8.8', 'public_only')).toBe(true);
  });
});

describe('checkWebhookUrl', () => {
  it('takes http and https URLs and gives them back as the parser writes them', () => {
    expect(checkWebhookUrl('https://Example.com/hooks?x=1', 'public_only')).toEqual({ ok: true, url: 'https://example.com/hooks?x=1' });
    expect(checkWebhookUrl('http://127.0.0.1:4000/hooks', 'public_and_loopback')).toEqual({ ok: true, url: 'http://127.0.0.1:4000/hooks' });
  });

  it.each([
    ['ftp://example.com/x', 'public_only', /^must use http or https, not ftp$/],
    ['example.com/hooks', 'public_only', /^must be an absolute URL/],
    ['https://user:pw@example.com/', 'public_only', /user name or password/],
    ['https://example.com/#frag', 'public_only', /fragment/],
    [`https://example.com/${'a'.repeat(2100)}`, 'public_only', /at most 2048/],
    ['http://127.0.0.1/', 'public_only', /^must not point at a loopback address \(127\.0\.0\.1\)$/],
    ['http://[::1]:8080/', 'public_only', /loopback address \(::1\)/],
    ['http://[::ffff:7f00:1]/', 'public_only', /loopback address/],
    ['http://169.254.169.254/latest/meta-data', 'public_only', /link-local address/],
    ['http://10.0.0.5/', 'public_and_loopback', /private address/],
    // The WHATWG parser reads these as 127.0.0.1: checked as such.
    ['http://2130706433/', 'public_only', /loopback address \(127\.0\.0\.1\)/],
    ['http://127.1/', 'public_only', /loopback address \(127\.0\.0\.1\)/],
    ['http://localhost:3000/', 'public_only', /local host \(localhost\)/],
    ['http://api.localhost/', 'public_only', /local host/],
  ] as const)('refuses %s', (url, policy, problem) => {
    const checked = checkWebhookUrl(url, policy);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problem).toMatch(problem);
  });

  it('lets localhost through outside production, where the worker allows loopback', () => {
    expect(checkWebhookUrl('http://localhost:3000/', 'public_and_loopback').ok).toBe(true);
  });
});
