import { type LookupAddress, lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { type AddressPolicy, classifyAddress, isAllowedAddress } from '../../services/domain/webhook-address.ts';

/**
 * The DNS lookup of the delivery agents: the name is resolved once, every address it gives is
 * checked against the policy, and the socket connects to exactly what was checked. Checking at
 * connect time, not when the endpoint is made, is what stops DNS rebinding (a name that answered
 * a public address yesterday and 169.254.169.254 today). A name with any address that is not
 * allowed is refused whole, rather than quietly connecting to its other addresses.
 */

export class AddressNotAllowedError extends Error {
  override name = 'AddressNotAllowedError';
  readonly code = 'EADDRNOTALLOWED';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`address not allowed: ${host === address ? address : `${host} resolves to ${address}`} (${classifyAddress(address).replace('_', '-')})`);
  }
}

export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.find((a) => !isAllowedAddress(a.address, policy));
      if (refused) return callback(new AddressNotAllowedError(hostname, refused.address), '', 0);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
