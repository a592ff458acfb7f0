import { closest, distance } from 'fastest-levenshtein';
import { EnvironmentVariables, OPTIONAL_SETTINGS } from './env.schema';

/** Read outside the schema: the process model. */
const OUTSIDE_SCHEMA = ['WEB_CONCURRENCY'] as const;

/** Every environment variable the service reads (docs/configuration.md lists each; `npm run lint` checks). */
export const KNOWN_VARIABLES: readonly string[] = [
  ...new Set([...Object.keys(new EnvironmentVariables()), ...OPTIONAL_SETTINGS, ...OUTSIDE_SCHEMA]),
].sort();

/** Set by the cluster primary for its workers; not a setting. */
const INTERNAL = new Set(['CAL_WORKER_SLOT']);
/**
 * Prefixes of this service's variables: an unknown name with one is a setting that does nothing. With no
 * near name of that prefix, the guess is the prefix's own (`DB_HOST`: the database is `DATABASE_URL`).
 */
const OUR_PREFIXES: Record<string, string | null> = { CAL_: null, DB_: 'DATABASE_URL', DATABASE_: 'DATABASE_URL' };
const MIN_LENGTH_FOR_TYPOS = 6;
const MAX_TYPO_DISTANCE = 2;

export interface Lookalike {
  name: string;
  /** The known variable it is closest to, when one is close enough to be a likely typo. */
  meant: string | null;
}

/**
 * Variables that look meant for this service but are not read by it: a typo of a known name (at most two
 * letters off) or an unknown name with one of its prefixes. Such a setting would silently do nothing
 * (`DATABSE_URL` left the service on SQLite).
 */
export function lookalikeVariables(env: Record<string, string | undefined>): Lookalike[] {
  const known = new Set(KNOWN_VARIABLES);
  const found: Lookalike[] = [];
  for (const name of Object.keys(env).sort()) {
    if (known.has(name) || INTERNAL.has(name) || env[name] === undefined) continue;
    const upper = name.toUpperCase();
    const nearest = closest(upper, KNOWN_VARIABLES);
    const near = distance(upper, nearest) <= MAX_TYPO_DISTANCE;
    if (known.has(upper) || (near && name.length >= MIN_LENGTH_FOR_TYPOS)) {
      found.push({ name, meant: nearest });
    } else {
      const prefix = Object.keys(OUR_PREFIXES).find((p) => upper.startsWith(p));
      if (prefix === undefined) continue;
      const kin = KNOWN_VARIABLES.filter((k) => k.startsWith(prefix));
      const nearestKin = kin.length > 0 ? closest(upper, kin) : null;
      const meant =
        nearestKin !== null && distance(upper, nearestKin) <= name.length / 2 ? nearestKin : OUR_PREFIXES[prefix];
      found.push({ name, meant });
    }
  }
  return found;
}

/** The warning line for one {@link Lookalike}. */
export function lookalikeWarning({ name, meant }: Lookalike): string {
  const guess = meant ? `did you mean ${meant}?` : 'docs/configuration.md lists the settings';
  return `${name} is set but is not a setting of this service (it does nothing): ${guess}`;
}
