import { DateTime } from 'luxon';

const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** A UTC `YYYY-MM-DD HH:MM:SS` as wall-clock time in `zone`, same format. */
export function utcToZone(sqlUtc: string, zone: string): string {
  return DateTime.fromFormat(sqlUtc, SQL_FORMAT, { zone: 'utc' }).setZone(zone).toFormat(SQL_FORMAT);
}
