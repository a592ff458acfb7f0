import { DateTime, type Zone } from 'luxon';

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
  const placed = DateTime.fromObject(wall, { zone });
  if (!placed.isValid) return placed;
  // Luxon alone picks either occurrence of a repeated time, depending on the zone.
  return [...placed.getPossibleOffsets()].sort((a, b) => a.toMillis() - b.toMillis())[0] ?? placed;
}

/** The instant (in UTC) a wall-clock time names in `zone` (`placeWallTime`). */
export function wallTimeToUtc(wall: WallTime, zone: string | Zone): DateTime {
  return placeWallTime(wall, zone).toUTC();
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
