import { DateTime } from 'luxon';

const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';
const SQL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * A stored UTC `YYYY-MM-DD HH:MM:SS` as an instant, read by hand: luxon's `fromFormat` compiles its format
 * on every call (a twentieth of a single-event read). Anything else goes to `fromFormat`, which says why
 * it is invalid.
 */
export function sqlUtcToDateTime(sqlUtc: string): DateTime {
  const m = SQL_DATE_TIME.exec(sqlUtc);
  const [year, month, day, hour, minute, second] = m ? m.slice(1).map(Number) : [];
  // Date.UTC reads years below 100 as 19xx and rolls 2025-02-30 over into March: those go the slow way.
  if (m && year >= 100) {
    const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
    const exact =
      at.getUTCMonth() === month - 1 &&
      at.getUTCDate() === day &&
      at.getUTCHours() === hour &&
      at.getUTCMinutes() === minute &&
      at.getUTCSeconds() === second;
    if (exact) return DateTime.fromMillis(at.getTime(), { zone: 'utc' });
  }
  return DateTime.fromFormat(sqlUtc, SQL_FORMAT, { zone: 'utc' });
}

/** A UTC `YYYY-MM-DD HH:MM:SS` as wall-clock time in `zone`, same format. */
export function utcToZone(sqlUtc: string, zone: string): string {
  return sqlUtcToDateTime(sqlUtc).setZone(zone).toFormat(SQL_FORMAT);
}
