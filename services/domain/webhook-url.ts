import { isIP } from 'node:net';
import { type AddressPolicy, classifyAddress, isAllowedAddress } from './webhook-address.ts';

/**
 * A webhook endpoint's URL as a client gives it: checked when the endpoint is made, so the
 * obvious mistakes are refused at once. Delivery checks the resolved address again at connect
 * time (webhook-address.ts), which is what holds against a name that changes what it points to.
 */

export const MAX_URL_LENGTH = 2048;

export type UrlCheck = { ok: true; url: string } | { ok: false; problem: string };

/** The host's IP address when the URL names one literally (brackets of IPv6 removed), else null. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}

/** Names that resolve to the local host without DNS (RFC 6761). */
function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * http or https only, no user or password in it (they would be stored and listed in clear),
 * at most 2,048 characters; under the public-only policy not an address or name of our own
 * network. Returns the URL as the WHATWG parser writes it (what the worker will call).
 */
export function checkWebhookUrl(input: string, policy: AddressPolicy): UrlCheck {
  if (input.length > MAX_URL_LENGTH) return { ok: false, problem: `must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, problem: 'must be an absolute URL such as https://example.com/webhooks' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, problem: `must use http or https, not ${url.protocol.slice(0, -1)}` };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'must not carry a user name or password' };
  if (url.hash !== '') return { ok: false, problem: 'must not have a #fragment (it is never sent)' };
  const literal = literalAddress(url.hostname);
  if (literal !== null && !isAllowedAddress(literal, policy))
    return { ok: false, problem: `must not point at a ${classifyAddress(literal).replace('_', '-')} address (${literal})` };
  if (literal === null && policy === 'public_only' && isLocalName(url.hostname))
    return { ok: false, problem: `must not point at the local host (${url.hostname})` };
  return { ok: true, url: url.toString() };
}
