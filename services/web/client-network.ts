import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a client address stands for, as the account page's throttles count it. An IPv4
 * address is one network. An IPv6 address is grouped by its /64: one subscriber is routinely
 * handed a whole /64 (RFC 6177), so counting each of its 2^64 addresses apart would give one
 * attacker a fresh window per request. An IPv4 address written as IPv6 (::ffff:a.b.c.d, how a
 * dual-stack listener reports IPv4 clients) is its IPv4 address.
 */
export function clientNetwork(address: string): string {
  const bare = address.split('%')[0] ?? address;
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return bare;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (with :: expanded and a dotted IPv4 tail folded in). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const middle = tail === undefined ? [] : Array<string>(8 - front.length - back.length).fill('0');
  return [...front, ...middle, ...back].map((g) => Number.parseInt(g, 16));
}
