import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses a webhook may be delivered to. In production only
 * public unicast addresses: a customer's URL must never make us call into our own network
 * (metadata services, Redis, OpenSearch, the admin side of a router). Outside production the
 * loopback interface is allowed too, so a developer's receiver on 127.0.0.1 works. The
 * worker applies this to the address it actually connects to, after DNS, so a name that
 * resolves to a public address at creation and a private one later is still refused.
 */

export type AddressClass = 'public' | 'loopback' | 'private' | 'link_local' | 'reserved';
export type AddressPolicy = 'public_only' | 'public_and_loopback';

export function addressPolicy(nodeEnv: 'development' | 'test' | 'production'): AddressPolicy {
  return nodeEnv === 'production' ? 'public_only' : 'public_and_loopback';
}

const RANGES: Record<Exclude<AddressClass, 'public'>, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['100.64.0.0', 10, 'ipv4'], // shared address space (carrier-grade NAT)
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'], // unique local
    ['fec0::', 10, 'ipv6'], // site-local (deprecated, still routed inside some networks)
    ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
  ],
  link_local: [
    ['169.254.0.0', 16, 'ipv4'], // includes the cloud metadata address 169.254.169.254
    ['fe80::', 10, 'ipv6'],
  ],
  reserved: [
    ['0.0.0.0', 8, 'ipv4'], // "this network": 0.0.0.0 reaches the local host on Linux
    ['192.0.0.0', 24, 'ipv4'],
    ['192.0.2.0', 24, 'ipv4'],
    ['192.88.99.0', 24, 'ipv4'],
    ['198.18.0.0', 15, 'ipv4'],
    ['198.51.100.0', 24, 'ipv4'],
    ['203.0.113.0', 24, 'ipv4'],
    ['224.0.0.0', 4, 'ipv4'], // multicast
    ['240.0.0.0', 4, 'ipv4'], // reserved, and the broadcast address
    ['::', 128, 'ipv6'],
    ['::', 96, 'ipv6'], // IPv4-compatible (deprecated since 2006): no receiver has one; ::1 is loopback above
    ['100::', 64, 'ipv6'], // discard
    ['2001::', 23, 'ipv6'], // protocol assignments, Teredo among them
    ['2001:db8::', 32, 'ipv6'], // documentation
    ['ff00::', 8, 'ipv6'], // multicast
  ],
};

const LISTS = Object.entries(RANGES).map(([name, ranges]) => {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return { name: name as Exclude<AddressClass, 'public'>, list };
});

/** The eight 16-bit groups of an IPv6 address (a zone id is dropped), or null. */
export function ipv6Groups(address: string): number[] | null {
  const text = address.replace(/%.*$/, '');
  if (!isIPv6(text)) return null;
  let body = text;
  // A trailing dotted quad (::ffff:10.0.0.1) is two groups.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(body);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    body = `${body.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = body.includes('::') ? body.split('::') : [body, undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const groups = tail === undefined ? left : [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : null;
}

const quadOf = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 address an IPv6 address carries, for every form that gets a packet to that IPv4
 * host (or into the IPv4 network of whoever translates it):
 *   - IPv4-mapped ::ffff:a.b.c.d (::ffff:0:0/96): a dual-stack socket connects over IPv4;
 *   - IPv4-translated ::ffff:0:a.b.c.d (::ffff:0:0:0/96, SIIT): a stateless translator hands it on;
 *   - IPv4-compatible ::a.b.c.d (::/96, deprecated): some stacks still tunnel it;
 *   - NAT64's well-known prefix 64:ff9b::a.b.c.d (64:ff9b::/96);
 *   - 6to4 2002:aabb:ccdd::/48: the relay sends it to aa.bb.cc.dd;
 *   - an ISATAP interface id (::0:5efe:a.b.c.d or ::200:5efe:a.b.c.d under any /64): the site's
 *     ISATAP router tunnels it to that IPv4 address inside its own network.
 * Teredo (2001::/32) carries one too (the client's, obfuscated), but the whole of 2001::/23 is
 * refused as reserved, and so is NAT64's local-use 64:ff9b:1::/48 (private): neither needs this.
 */
export function embeddedIPv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return quadOf(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return quadOf(g[6]!, g[7]!);
  // :: and ::1 are themselves (unspecified, loopback), not IPv4-compatible 0.0.0.0 and 0.0.0.1.
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return quadOf(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return quadOf(g[6]!, g[7]!);
  if (g[0] === 0x2002) return quadOf(g[1]!, g[2]!);
  if ((g[4] === 0 || g[4] === 0x200) && g[5] === 0x5efe) return quadOf(g[6]!, g[7]!);
  return null;
}

/**
 * An IPv6 form whose embedded IPv4 address decides alone: the mapped, translated and NAT64
 * forms mean the IPv4 host and nothing else. The other forms are IPv6 addresses in their own
 * right too (a 6to4 or ISATAP prefix routes like any other), so they are refused when either
 * the IPv4 host or the IPv6 address would be.
 */
function isPureIPv4Form(address: string): boolean {
  const g = ipv6Groups(address)!;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return true;
  return zeros(0, 4) && ((g[4] === 0 && g[5] === 0xffff) || (g[4] === 0xffff && g[5] === 0));
}

/** What kind of address this is; anything that is not an IP address at all counts as reserved. */
export function classifyAddress(address: string): AddressClass {
  const text = address.replace(/%.*$/, '');
  const family = isIPv4(text) ? 'ipv4' : isIPv6(text) ? 'ipv6' : null;
  if (family === null) return 'reserved';
  if (family === 'ipv6') {
    const inner = embeddedIPv4(text);
    if (inner !== null) {
      const kind = classifyAddress(inner);
      if (kind !== 'public' || isPureIPv4Form(text)) return kind;
    }
  }
  for (const { name, list } of LISTS) if (list.check(text, family)) return name;
  return 'public';
}

export function isAllowedAddress(address: string, policy: AddressPolicy): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (kind === 'loopback' && policy === 'public_and_loopback');
}
