import { DateTime } from 'luxon';
import { wallTimeOf, wallTimeToUtc } from '../../../common/dates/wall-time';
import { lineDates, type LineDate } from './recurrence-lines';
import { shiftWall } from './occurrence-dates';

/**
 * Where a series is cut in two (`scope=following`): the rule time of the first occurrence of the second part,
 * in the series' zone, and whether the series is all-day (its UNTIL is then a date, as RFC 5545 wants).
 */
export interface SeriesCut {
  occurrenceLocal: string;
  zone: string;
  allDay: boolean;
}

const nameOf = (line: string): string => (/^([A-Za-z-]+)/.exec(line)?.[1] ?? '').toUpperCase();
const compact = (dt: DateTime, withTime: boolean): string =>
  withTime ? dt.toFormat("yyyyMMdd'T'HHmmss") : dt.toFormat('yyyyMMdd');

/** An RRULE line with its end replaced: COUNT and UNTIL dropped, `until` (RFC 5545 text) put in, if any. */
export function withUntil(line: string, until: string | null): string {
  const colon = line.indexOf(':');
  const parts = line
    .slice(colon + 1)
    .split(';')
    .filter((part) => !/^(COUNT|UNTIL)=/i.test(part));
  if (until !== null) parts.push(`UNTIL=${until}`);
  return `${line.slice(0, colon)}:${parts.join(';')}`;
}

/** An RDATE line with only the dates `keep` accepts; null when none is left. */
function filterDates(line: string, zone: string, keep: (date: LineDate) => boolean): string | null {
  const dates = lineDates(line, zone);
  if (typeof dates === 'string') return line;
  const colon = line.indexOf(':');
  const values = line.slice(colon + 1).split(',');
  const kept = values.filter((_v, i) => dates[i] === undefined || keep(dates[i]));
  return kept.length === 0 ? null : `${line.slice(0, colon)}:${kept.join(',')}`;
}

function cutPoint(cut: SeriesCut): { utc: DateTime; day: string } {
  const wall = wallTimeOf(cut.occurrenceLocal);
  if (!wall) throw new Error(`not a wall time: ${cut.occurrenceLocal}`);
  return { utc: wallTimeToUtc(wall, cut.zone), day: cut.occurrenceLocal.slice(0, 10) };
}

const dayOf = (date: Extract<LineDate, { kind: 'day' }>): string =>
  `${date.wall.year}-${String(date.wall.month).padStart(2, '0')}-${String(date.wall.day).padStart(2, '0')}`;

/** Whether a line's date falls before the cut: an instant before it, a whole day before its day. */
function before(date: LineDate, point: { utc: DateTime; day: string }): boolean {
  return date.kind === 'day' ? dayOf(date) < point.day : date.utc < point.utc;
}

/** The first part's lines: every rule ends before the cut (UNTIL), RDATEs from the cut on are dropped. */
export function linesBefore(lines: readonly string[], cut: SeriesCut): string[] {
  const point = cutPoint(cut);
  const until = cut.allDay
    ? compact(DateTime.fromISO(point.day, { zone: 'UTC' }).minus({ days: 1 }), false)
    : `${compact(point.utc.minus({ seconds: 1 }).toUTC(), true)}Z`;
  return lines.flatMap((line) => {
    const name = nameOf(line);
    if (name === 'RRULE') return [withUntil(line, until)];
    if (name === 'RDATE') return filterDates(line, cut.zone, (d) => before(d, point)) ?? [];
    return [line];
  });
}

/**
 * The second part's lines: its rules run from the cut (its first occurrence) as far as they ran, so a COUNT
 * becomes an UNTIL at the old series' last occurrence (`lastUtc`); RDATEs before the cut are dropped.
 */
export function linesFrom(lines: readonly string[], cut: SeriesCut, lastUtc: DateTime): string[] {
  const point = cutPoint(cut);
  const last = cut.allDay ? compact(lastUtc.setZone(cut.zone), false) : `${compact(lastUtc.toUTC(), true)}Z`;
  return lines.flatMap((line) => {
    const name = nameOf(line);
    if (name === 'RRULE') return [/;COUNT=|:COUNT=/i.test(line) ? withUntil(line, last) : line];
    if (name === 'RDATE') return filterDates(line, cut.zone, (d) => !before(d, point)) ?? [];
    return [line];
  });
}

/** The lines with one more EXDATE: the occurrence at `occurrenceLocal` (floating: in the series' zone). */
export function withExdate(lines: readonly string[], occurrenceLocal: string, allDay: boolean): string[] {
  const wall = DateTime.fromSQL(occurrenceLocal, { zone: 'UTC' });
  const line = allDay ? `EXDATE;VALUE=DATE:${compact(wall, false)}` : `EXDATE:${compact(wall, true)}`;
  return lines.includes(line) ? [...lines] : [...lines, line];
}

/**
 * The lines without the EXDATE values that name the occurrence at `occurrenceLocal` (an instant in any form,
 * or its whole day): an occurrence restored from the trash is part of the series again.
 */
export function withoutExdate(lines: readonly string[], occurrenceLocal: string, zone: string): string[] {
  const wall = wallTimeOf(occurrenceLocal);
  if (!wall) return [...lines];
  const at = wallTimeToUtc(wall, zone).toMillis();
  const day = occurrenceLocal.slice(0, 10);
  return lines.flatMap((line) => {
    if (nameOf(line) !== 'EXDATE') return [line];
    const names = (d: LineDate) => (d.kind === 'day' ? dayOf(d) === day : d.utc.toMillis() === at);
    return filterDates(line, zone, (d) => !names(d)) ?? [];
  });
}

/**
 * The lines of a series whose occurrences all moved by `seconds` on the clock face (`scope=all|following` with
 * new times): each RDATE and EXDATE value, and each rule's UNTIL, moves with them in the form it was written in
 * (a date by whole days, a local time on the clock face, a UTC time to the instant of its moved wall time), so
 * they still name the same occurrences. The rules count from DTSTART, which moved; an UNTIL left behind would
 * cut off the last occurrence of a series moved later.
 */
export function linesMovedBy(lines: readonly string[], seconds: number, zone: string): string[] {
  if (seconds === 0) return [...lines];
  return lines.map((line) => {
    const name = nameOf(line);
    const colon = line.indexOf(':');
    if (name === 'RRULE')
      return line.replace(
        /([:;]UNTIL=)([0-9TZ]+)/i,
        (_all, key: string, value: string) => key + movedValue(value, seconds, zone),
      );
    if (name !== 'RDATE' && name !== 'EXDATE') return line;
    const dates = lineDates(line, zone);
    if (typeof dates === 'string') return line;
    const values = line.slice(colon + 1).split(',');
    const moved = values.map((value, i) => (dates[i] === undefined ? value : movedValue(value, seconds, zone)));
    return `${line.slice(0, colon)}:${moved.join(',')}`;
  });
}

/** One date value of a line moved by `seconds` on the clock face of `zone`, in the form it was written in. */
function movedValue(value: string, seconds: number, zone: string): string {
  if (/^\d{8}$/.test(value)) {
    return compact(
      DateTime.fromFormat(value, 'yyyyMMdd', { zone: 'UTC' }).plus({ days: Math.trunc(seconds / 86_400) }),
      false,
    );
  }
  const utc = value.toUpperCase().endsWith('Z');
  const written = DateTime.fromFormat(value.replace(/Z$/i, ''), "yyyyMMdd'T'HHmmss", { zone: 'UTC' });
  if (!utc) return compact(written.plus({ seconds }), true);
  // The instant's wall time in the zone, moved on the clock face, placed in the zone again.
  const moved = wallTimeOf(shiftWall(written.setZone(zone).toFormat('yyyy-MM-dd HH:mm:ss'), seconds));
  if (!moved) return value;
  const placed = wallTimeToUtc(moved, zone);
  return `${compact(placed, true)}Z`;
}
