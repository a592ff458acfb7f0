import { sqlOfMs, steadyInstant, wallMsOf, wallTimeOf, wallTimeToUtc } from '../../../common/dates/wall-time';
import { shiftWall } from '../recurrence/occurrence-dates';

/**
 * A series' length as its VEVENT's DURATION: whole days nominal (`P2D`: two days on the clock face, 48 or 47
 * hours as the zone's offsets fall), the rest exact (`PT1H30M`), as RFC 5545 §3.3.6 reads them. A DTEND would
 * make readers take the first occurrence's elapsed time for every other one: ical.js then adds it as days and
 * hours (a Friday–Sunday festival that starts on the weekend of a change ends an hour off on every other
 * weekend), others add it exactly (the weekend of a change is then an hour off). Nominal days are the one form
 * every reader adds alike, on the clock face, as the service keeps an occurrence's length.
 */
export function nominalDuration(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  let rest = seconds % 86_400;
  const hours = Math.floor(rest / 3600);
  rest %= 3600;
  const minutes = Math.floor(rest / 60);
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${rest % 60 ? `${rest % 60}S` : ''}`;
  if (days === 0 && time === '') return 'PT0S';
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}

/**
 * Where a reader ends an occurrence that starts at `startLocal` (its wall time as it starts) in `zone` and
 * lasts the series' {@link nominalDuration}: the days on the clock face, then the rest exactly. An occurrence
 * whose end is elsewhere (edited on its own) is written as an exception with its own times.
 */
export function readersEndUtc(startLocal: string, seconds: number, zone: string): string {
  const days = Math.floor(seconds / 86_400);
  const start = wallMsOf(startLocal);
  const steady = start === undefined ? undefined : steadyInstant(start + days * 86_400_000, zone);
  const fast = steady === undefined ? undefined : sqlOfMs(steady + (seconds % 86_400) * 1000);
  if (fast !== undefined) return fast;
  const wall = wallTimeOf(shiftWall(startLocal, days * 86_400));
  if (!wall) return startLocal;
  return wallTimeToUtc(wall, zone)
    .plus({ seconds: seconds % 86_400 })
    .toUTC()
    .toFormat('yyyy-MM-dd HH:mm:ss');
}
