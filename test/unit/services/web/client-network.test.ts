import { describe, expect, it } from 'vitest';
import { clientNetwork } from '../../../../services/web/client-network.ts';

describe('clientNetwork', () => {
  it('keeps an IPv4 address whole', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('203.0.113.8')).toBe('203.0.113.8');
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    const one = clientNetwork('2001:db8:1:2::1');
    expect(one).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0DB8:0001:0002:ffff:ffff:ffff:fffe')).toBe(one);
    expect(clientNetwork('2001:db8:1:2:a:b:c:d%eth0')).toBe(one);
    expect(clientNetwork('2001:db8:1:3::1')).not.toBe(one);
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('fe80::')).toBe('fe80:0:0:0::/64');
    expect(clientNetwork('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('passes anything else through (a test double, a unix socket)', () => {
    expect(clientNetwork('')).toBe('');
    expect(clientNetwork('not an address')).toBe('not an address');
  });
});
