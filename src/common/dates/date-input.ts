import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { placeWallTime, wallMsOfParts } from './wall-time';

// `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD HH:MM` and `YYYY-MM-DD`, read by hand: luxon's `fromFormat` compiles its
// format on every call, which cost more than the rest of a list request's date handling.
const LOCAL_FORM = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const zones = new Map<string, Zone>();

/**
 * A time zone as clients give it: an IANA name (`Europe/Berlin`) or a fixed offset `UTC`, `UTC+2`,
 * `UTC-5:30`. Returns null for anything else.
 */
export function resolveZone(name: string): Zone | null {
  const trimmed = name.trim();
  const known = zones.get(trimmed);
  if (known) return known;
  // Only valid names are remembered, so the map is bounded by the zone database.
  if (IANAZone.isValidZone(trimmed)) {
    const zone = IANAZone.create(trimmed);
    zones.set(trimmed, zone);
    return zone;
  }
  const fixed = /^UTC([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(trimmed);
  if (fixed) {
    const minutes = Number(fixed[2]) * 60 + Number(fixed[3] ?? 0);
    if (minutes > 14 * 60) return null;
    return FixedOffsetZone.instance(fixed[1] === '-' ? -minutes : minutes);
  }
  return /^UTC$/i.test(trimmed) ? FixedOffsetZone.utcInstance : null;
}

/**
 * Reads a client's date (behaviour.md §6): `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD`,
 * ISO 8601 (with `T`, optionally an offset or `Z`), or a unix timestamp in seconds (number or digits).
 * Wall-clock forms are read in `zone`. Returns null for anything else, and for dates outside the years 1000–9999.
 *
 * Daylight saving: a wall-clock time that does not exist in `zone` (skipped by a spring-forward) is moved
 * forward by the gap (02:30 on the night Berlin skips 02:00–03:00 becomes 03:30 CEST); a time that exists
 * twice (fall-back) is read as the first of the two (the summer-time one). Neither is an error.
 */
export function parseDateInput(value: unknown, zone: Zone | string): DateTime | null {
  const parsed = parseAnyDate(value, zone);
  return parsed && isSupportedInstant(parsed) ? parsed : null;
}

/** The years a stored date may have: four digits in the date's own zone and in UTC (MySQL DATETIME, sorting). */
export const SUPPORTED_YEARS = { min: 1000, max: 9999 } as const;

function isSupportedInstant(dt: DateTime): boolean {
  const inRange = (year: number) => year >= SUPPORTED_YEARS.min && year <= SUPPORTED_YEARS.max;
  return dt.isValid && inRange(dt.year) && inRange(dt.toUTC().year);
}

function parseAnyDate(value: unknown, zone: Zone | string): DateTime | null {
  if (typeof value === 'number') {
    return Number.isFinite(value) ? DateTime.fromSeconds(Math.trunc(value), { zone: 'utc' }) : null;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^-?\d{1,15}$/.test(text)) return DateTime.fromSeconds(Number(text), { zone: 'utc' });
  const local = LOCAL_FORM.exec(text);
  if (local) {
    const [year, month, day, hour, minute, second] = local.slice(1).map((part) => Number(part ?? 0));
    const parsed = placeWallTime({ year, month, day, hour, minute, second }, zone);
    return parsed.isValid ? parsed : null;
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) {
    const parsed = DateTime.fromISO(text, { zone });
    if (parsed.isValid) return parsed;
  }
  return null;
}

/**
 * A client's wall-clock date in the local form {@link parseDateInput} reads (`YYYY-MM-DD[ HH:MM[:SS]]`), as
 * milliseconds counted as if in UTC, for arithmetic without a DateTime; undefined for every other form and
 * for what is no such time (a 30 February, 24:00), which `parseDateInput` reads or refuses.
 */
export function localWallMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const local = LOCAL_FORM.exec(value.trim());
  if (!local) return undefined;
  const [year, month, day, hour, minute, second] = local.slice(1).map((part) => Number(part ?? 0));
  return wallMsOfParts(year, month, day, hour, minute, second);
}

/** `YYYY-MM-DD HH:MM:SS` of a DateTime in its own zone. */
export function toSqlDateTime(dt: DateTime): string {
  return dt.toFormat('yyyy-MM-dd HH:mm:ss');
}
