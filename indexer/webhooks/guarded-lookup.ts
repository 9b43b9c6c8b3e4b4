import { type LookupAddress, type LookupAllOptions, promises as dns } from 'node:dns';
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
    super(
      `address not allowed: ${host === address ? address : `${host} resolves to ${address}`} (${classifyAddress(address).replace('_', '-')})`,
    );
  }
}

/** How a name becomes addresses: the system's resolver (getaddrinfo), or a given DNS server in tests. */
export type Resolve = (hostname: string, options: LookupAllOptions) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname, options) => dns.lookup(hostname, { ...options, all: true });

export function guardedLookup(policy: AddressPolicy, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }).then(
      (addresses) => {
        const refused = addresses.find((a) => !isAllowedAddress(a.address, policy));
        if (refused) return callback(new AddressNotAllowedError(hostname, refused.address), '', 0);
        if (options.all) return callback(null, addresses);
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}
