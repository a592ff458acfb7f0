import { DateTime } from 'luxon';

/**
 * The short name of a zone at an instant: `EST`/`EDT`, `CET`/`CEST`, `GMT+2` where no common
 * abbreviation exists, `UTC+2` for fixed offsets. ICU knows North American names in `en-US` and
 * European ones in `en-GB`; the first that is not a bare GMT offset wins.
 */
export function timeZoneAbbreviation(utcInstant: DateTime, zone: string): string {
  if (/^UTC[+-]/i.test(zone)) return zone.toUpperCase();
  const at = utcInstant.setZone(zone);
  if (!at.isValid) return zone;
  // Building ICU formatters is the costly part; a zone has only a few names (standard, summer).
  const key = `${zone}|${at.offset}`;
  const cached = abbreviations.get(key);
  if (cached !== undefined) return cached;
  const name = lookUpAbbreviation(at, zone);
  if (abbreviations.size < 10_000) abbreviations.set(key, name);
  return name;
}

const abbreviations = new Map<string, string>();

function lookUpAbbreviation(at: DateTime, zone: string): string {
  let fallback = '';
  for (const locale of ['en-US', 'en-GB']) {
    const name = at.setLocale(locale).offsetNameShort ?? '';
    if (name !== '' && !/^GMT[+-]/.test(name))
      return name === 'GMT' && at.offset === 0 && zone === 'UTC' ? 'UTC' : name;
    fallback ||= name;
  }
  return fallback || zone;
}

/** `{year, month, day, hour, minutes, seconds}` as zero-padded strings, from `YYYY-MM-DD HH:MM:SS`. */
export function dateDetails(sql: string): {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
} {
  const [date, time] = sql.split(' ');
  const [year, month, day] = date.split('-');
  const [hour, minutes, seconds] = time.split(':');
  return { year, month, day, hour, minutes, seconds };
}
