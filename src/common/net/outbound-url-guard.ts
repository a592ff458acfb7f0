import ipaddr from 'ipaddr.js';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

/**
 * Whether an address is a public unicast one: not loopback, private, link-local, unique-local, carrier
 * NAT, multicast, unspecified or reserved (IPv4-mapped IPv6 judged as the IPv4 it carries).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  // ipaddr.js calls the deprecated IPv4-compatible block (::a.b.c.d, RFC 4291 §2.5.5.1) unicast, and the URL
  // parser writes http://[::127.0.0.1]/ as [::7f00:1]: no public host is reached by such an address.
  if (parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) return false;
  return parsed.range() === 'unicast';
}

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * Why a URL the service is asked to reach (a webhook endpoint, an import source) is refused, or null when it
 * may be used. Resolves the host name (SSRF guard); `allowSetting` names the setting that lifts the guard.
 */
export async function refuseOutboundUrl(
  raw: string,
  allowPrivate: boolean,
  allowSetting = 'WEBHOOKS_ALLOW_PRIVATE',
): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host) ? [host] : await resolveAll(host);
  if (addresses === null) return 'names a host that does not resolve';
  return addresses.every(isPublicAddress)
    ? null
    : `points at a loopback, private or link-local address (allowed only with ${allowSetting}=true)`;
}

function resolveAll(host: string): Promise<string[] | null> {
  return new Promise((resolve) => {
    dnsLookup(host, { all: true }, (error, found: LookupAddress[]) =>
      resolve(error || found.length === 0 ? null : found.map((a) => a.address)),
    );
  });
}

/**
 * A `lookup` for outgoing requests that refuses non-public addresses at connect time, so a host name that
 * resolved to a public address when the endpoint was registered cannot be re-pointed inside (DNS
 * rebinding). The connection goes to the very address that was checked.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = allowPrivate ? found : found.filter((a) => isPublicAddress(a.address));
      if (usable.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves to no public address`), {
          code: 'EADDRNOTPUBLIC',
        });
        return callback(refused, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      return callback(null, usable[0].address, usable[0].family);
    });
  };
}
