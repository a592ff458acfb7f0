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

const DAY_MS = 86_400_000;

const sameWall = (at: DateTime, wall: WallTime): boolean =>
  at.year === wall.year &&
  at.month === wall.month &&
  at.day === wall.day &&
  at.hour === wall.hour &&
  at.minute === wall.minute &&
  at.second === wall.second;

/**
 * The instant a wall-clock time names in `zone`, as RFC 5545 §3.3.5 reads one: a time that occurs twice
 * (the hour repeated when clocks go back) is its first occurrence; a time that does not occur (the hour
 * skipped when clocks go forward) takes the offset from before the gap, so 02:30 on a spring-forward night
 * is 03:30. Luxon alone picks either occurrence of a repeated time, depending on the zone.
 */
export function wallTimeToUtc(wall: WallTime, zone: string | Zone): DateTime {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  // Zone transitions are further apart than two days: the offsets a day either side are the only candidates.
  const offsetAt = (ms: number) => DateTime.fromMillis(ms, { zone }).offset * 60_000;
  const before = offsetAt(asUtc - DAY_MS);
  const after = offsetAt(asUtc + DAY_MS);
  const matching = [...new Set([before, after])]
    .map((offset) => DateTime.fromMillis(asUtc - offset, { zone }))
    .filter((at) => sameWall(at, wall))
    .sort((a, b) => a.toMillis() - b.toMillis());
  return (matching[0] ?? DateTime.fromMillis(asUtc - before, { zone })).toUTC();
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
