import { DateTime, Info, type Zone } from 'luxon';

/** A wall-clock time without a zone: what a recurrence rule counts in. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * A wall-clock time placed in `zone`, as RFC 5545 §3.3.5 reads one (and client dates are read, behaviour.md
 * §6): a time that occurs twice (the hour repeated when clocks go back) is its first occurrence; a time that
 * does not occur (the hour skipped when clocks go forward) moves forward by the gap, so 02:30 on a
 * spring-forward night is 03:30. Invalid (a 30 February) when the wall time is no date.
 */
export function placeWallTime(wall: WallTime, zone: string | Zone): DateTime {
  const instant = plainInstant(wall, zone);
  return instant === undefined ? placedByLuxon(wall, zone) : DateTime.fromMillis(instant, { zone });
}

/** The instant (in UTC) a wall-clock time names in `zone` (`placeWallTime`). */
export function wallTimeToUtc(wall: WallTime, zone: string | Zone): DateTime {
  const instant = plainInstant(wall, zone);
  return instant === undefined ? placedByLuxon(wall, zone).toUTC() : DateTime.fromMillis(instant, { zone: 'utc' });
}

/** The slow path, and the reference the fast one is tested against (wall-time.spec.ts). */
export function placedByLuxon(wall: WallTime, zone: string | Zone): DateTime {
  const placed = DateTime.fromObject(wall, { zone });
  if (!placed.isValid) return placed;
  // Luxon alone picks either occurrence of a repeated time, depending on the zone.
  return [...placed.getPossibleOffsets()].sort((a, b) => a.toMillis() - b.toMillis())[0] ?? placed;
}

const DAY_MS = 86_400_000;
/** Offsets already asked of a zone, by instant: each costs an Intl call, and a series asks the same ones. */
const offsetMemo = new Map<string, Map<number, number>>();
const MEMO_SIZE = 20_000;

function memoizedOffset(zone: Zone, at: number): number {
  let memo = offsetMemo.get(zone.name);
  if (!memo) offsetMemo.set(zone.name, (memo = new Map<number, number>()));
  let offset = memo.get(at);
  if (offset === undefined) {
    if (memo.size >= MEMO_SIZE) memo.clear();
    offset = zone.offset(at);
    memo.set(at, offset);
  }
  return offset;
}

/**
 * The instant of a wall time far from any change of offset, from at most three (memoized) offsets; undefined
 * when a change is within a day of it, or the wall time is unusual (no date, a year luxon and Date read
 * differently), where luxon places it. Equal to luxon's answer (the same offsets and the same test that
 * `getPossibleOffsets` makes), except where luxon's own answer would depend on the current time.
 */
function plainInstant(wall: WallTime, zoneInput: string | Zone): number | undefined {
  if (wall.year < 1000 || wall.year > 9999) return undefined;
  const local = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const check = new Date(local);
  if (
    check.getUTCMonth() !== wall.month - 1 ||
    check.getUTCDate() !== wall.day ||
    check.getUTCHours() !== wall.hour ||
    check.getUTCMinutes() !== wall.minute ||
    check.getUTCSeconds() !== wall.second
  ) {
    return undefined;
  }
  const steady = steadyInstant(local, zoneInput);
  if (steady !== undefined) return steady;
  const zone = Info.normalizeZone(zoneInput);
  if (!zone.isValid) return undefined;
  if (zone.isUniversal) return local - zone.offset(local) * 60_000;
  const before = memoizedOffset(zone, local - DAY_MS);
  if (memoizedOffset(zone, local + DAY_MS) !== before) return undefined;
  const instant = local - before * 60_000;
  return memoizedOffset(zone, instant) === before ? instant : undefined;
}

/** A `YYYY-MM-DD HH:MM:SS` as a wall time (no zone); undefined when it is not one. */
export function wallTimeOf(sql: string): WallTime | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(sql);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const check = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const valid = check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day;
  return valid && hour < 24 && minute < 60 && second < 60 ? { year, month, day, hour, minute, second } : undefined;
}

/** A wall time as `YYYY-MM-DD HH:MM:SS`. */
export function formatWallTime(wall: WallTime): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(wall.year).padStart(4, '0')}-${two(wall.month)}-${two(wall.day)} ${two(wall.hour)}:${two(wall.minute)}:${two(wall.second)}`;
}

/**
 * The instant of a wall time (its milliseconds counted as if in UTC) where the zone's offset is the same at
 * the UTC midnights a day before its day and two days after: no change of offset is near it, so it names one
 * instant, at that offset (an offset is less than a day, so the instant lies between the two). Undefined
 * otherwise, where `placeWallTime` decides. The probes are whole UTC days, shared by every wall time of those
 * days: a series of 1,826 daily occurrences asks the zone about 1,830 times instead of four times per
 * occurrence. Like `plainInstant`, this reads a zone whose offset changes and changes back within three days
 * as steady; the zone database has no such change.
 */
export function steadyInstant(wallMs: number, zoneInput: string | Zone): number | undefined {
  if (!Number.isFinite(wallMs)) return undefined;
  const zone = Info.normalizeZone(zoneInput);
  if (!zone.isValid) return undefined;
  if (zone.isUniversal) return wallMs - zone.offset(wallMs) * 60_000;
  const day = Math.floor(wallMs / DAY_MS) * DAY_MS;
  const before = memoizedOffset(zone, day - DAY_MS);
  if (memoizedOffset(zone, day + 2 * DAY_MS) !== before) return undefined;
  return wallMs - before * 60_000;
}

const SQL_WALL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * A `YYYY-MM-DD HH:MM:SS` wall time as milliseconds counted as if in UTC, for arithmetic on the clock face
 * without a DateTime; undefined when it is no such time or its year is outside 1000–9999.
 */
export function wallMsOf(sql: string): number | undefined {
  const m = SQL_WALL.exec(sql);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  return wallMsOfParts(year, month, day, hour, minute, second);
}

/**
 * A wall time's parts as milliseconds counted as if in UTC; undefined when they name no time (a 30 February,
 * 24:00) or the year is outside 1000–9999 (Date.UTC reads years below 100 as 19xx).
 */
export function wallMsOfParts(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number | undefined {
  if (year < 1000 || year > 9999 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(ms);
  return check.getUTCMonth() === month - 1 && check.getUTCDate() === day ? ms : undefined;
}

/** Milliseconds (of a wall time, or of an instant in UTC) as `YYYY-MM-DD HH:MM:SS`; undefined outside 1000–9999. */
export function sqlOfMs(ms: number): string | undefined {
  if (!Number.isFinite(ms)) return undefined;
  const iso = new Date(ms).toISOString();
  if (iso.length !== 24 || iso < '1000') return undefined;
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}
