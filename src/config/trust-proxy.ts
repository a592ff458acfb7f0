import ipaddr from 'ipaddr.js';

/**
 * Express's `trust proxy` forms: `false` (no proxy), a hop count (the last N addresses of
 * `X-Forwarded-For` were added by proxies of ours), or the addresses and subnets of our proxies, with
 * proxy-addr's names for ranges. `true` trusts every hop, so the client address is whatever the client
 * wrote first in its own header: accepted, for compatibility, and warned about at start-up.
 */
export type TrustProxySetting = boolean | number | string[];

const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A hop count of at most this many: a longer chain of our own proxies is a typo. */
const MAX_HOPS = 32;

export function parseTrustProxy(raw: unknown): TrustProxySetting | undefined {
  if (typeof raw === 'boolean') return raw;
  if (typeof raw !== 'string') return undefined;
  const value = raw.trim().toLowerCase();
  if (['', 'false', 'no', 'off', '0'].includes(value)) return false;
  if (['true', 'yes', 'on'].includes(value)) return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= 1 && hops <= MAX_HOPS ? hops : undefined;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.length > 0 && entries.every(isTrustedProxyEntry) ? entries : undefined;
}

function isTrustedProxyEntry(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  if (entry.includes('/')) return ipaddr.isValidCIDR(entry);
  return ipaddr.isValid(entry);
}

/** What start-up says of the setting (the summary line and the warning for `true`). */
export function describeTrustProxy(setting: TrustProxySetting): string {
  if (setting === false) return 'no proxy';
  if (setting === true) return 'every hop';
  if (typeof setting === 'number') return `${setting} hop${setting === 1 ? '' : 's'}`;
  return setting.join(', ');
}
