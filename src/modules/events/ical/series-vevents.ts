import { ICalCalendar, ICalEvent, type ICalEventData } from 'ical-generator';
import { DateTime } from 'luxon';
import { resolveZone } from '../../../common/dates/date-input';
import { placeWallTime, steadyInstant, wallMsOf, wallTimeOf } from '../../../common/dates/wall-time';
import type { EventDates } from '../model/event-dates';
import type { EventObject } from '../model/event.mapper';
import type { EventSeriesEntity } from '../recurrence/event-series.entity';
import { parseRecurrence } from '../recurrence/recurrence-lines';
import { expandSeries, rulesGiveStart } from '../recurrence/series-expansion';
import { occurrenceDates } from '../recurrence/occurrence-dates';
import { withUntil } from '../recurrence/series-lines-edit';
import { foldLines } from './fold-lines';
import { sqlUtcToMs } from '../../../database/datetime.transformer';
import { toICalEventData } from './ical-event';
import { nominalDuration, readersEndUtc } from './series-duration';

/** One occurrence a feed lists: its object as the caller sees it, its rule time and its stored times. */
export interface ListedOccurrence {
  object: EventObject;
  occurrenceLocal: string;
  startUtc: string;
  endUtc: string;
  changedUtc?: string | null;
}

const SINGLE_INSTANCE = 'RRULE:FREQ=DAILY;COUNT=1';

/**
 * What every VEVENT of a series says of itself alone: its times, identity, when it was written and its own page.
 * Everything else an occurrence's VEVENT holds (its summary, place, categories, a module's `X-` properties, and
 * whatever property is declared next) is what a subscriber sees of it: where it differs from the series', the
 * occurrence is written as an exception.
 */
const OWN_PROPERTIES = new Set<string>([
  'start',
  'end',
  'allDay',
  'timezone',
  'floating',
  'id',
  'stamp',
  'lastModified',
  'sequence',
  'created',
  'url',
  'recurrenceId',
]);
const contentOf = (data: ICalEventData): string =>
  JSON.stringify(Object.entries(data).filter(([key, value]) => value !== undefined && !OWN_PROPERTIES.has(key)));
/** Every zone written as UTC: an occurrence's content without placing its times in a zone (no DateTime). */
const noZones = (): boolean => false;

/**
 * A series as RFC 5545 writes one (behaviour.md §11): one VEVENT with the series' UID, an RRULE bounded to
 * the occurrences listed, and EXDATE/RDATE so that its expansion is exactly the listed rule times; then a
 * VEVENT with a RECURRENCE-ID for every listed occurrence whose times or content differ from the series'.
 * The EXDATEs and RDATEs are worked out here from what is listed (not copied from the stored lines), so a
 * feed filtered by dates, terms or visibility expands to the instants of the JSON list with the same query.
 * A zone that no VTIMEZONE describes (`UTC+2`) gets no RRULE (counted in UTC it could name other days):
 * every instant is then an RDATE in UTC.
 */
export function seriesVevents(
  series: EventSeriesEntity,
  listed: readonly ListedOccurrence[],
  hasZone: (zone: string) => boolean,
  nowUtc: string,
): string {
  if (listed.length === 0) return '';
  const occurrences = [...listed].sort((a, b) => (a.occurrenceLocal < b.occurrenceLocal ? -1 : 1));
  const first = occurrences[0].occurrenceLocal;
  const last = occurrences.at(-1)!.occurrenceLocal;
  const zone = series.timezone;
  const timed = !series.allDay;
  const withRules = !timed || hasZone(zone);
  const datesAt = (local: string): EventDates => occurrenceDates(series, local);
  const now = DateTime.fromSQL(nowUtc, { zone: 'UTC' });
  const ruleLines = series.lines.filter((line) => /^RRULE[;:]/i.test(line));
  // A rule some reader expands wrongly (ical.js reads BYWEEKNO as weekly) goes as its dates (RDATEs) instead.
  const readAlike = ruleLines.every((line) => !/[;:]BYWEEKNO=/i.test(line));
  const rules = withRules && readAlike ? ruleLines.map((line) => leapDayForm(line, series.startLocal)) : [];
  const anchor = rules.length > 0 ? firstRuleTimeFrom(series, rules, first, now) : undefined;
  const masterLocal = anchor !== undefined && anchor <= last ? anchor : first;
  // An hour past the last start: a reader that compares UNTIL in local time (the repeated hour) keeps it too,
  // and no other occurrence is that close (a series repeats at most daily).
  const until = timed
    ? `${DateTime.fromSQL(datesAt(last).startUtc, { zone: 'UTC' }).plus({ hours: 1 }).toFormat("yyyyMMdd'T'HHmmss")}Z`
    : last.slice(0, 10).replace(/-/g, '');
  // Without a rule, readers differ on whether DTSTART is an instance of an RDATE-only set: a rule of one says so.
  const bounded = masterLocal === anchor ? rules.map((line) => withUntil(line, until)) : [SINGLE_INSTANCE];
  const expected = new Set(masterLocal === anchor ? ruleTimes(series, bounded, masterLocal, now) : [masterLocal]);
  const listedTimes = new Set(occurrences.map((o) => o.occurrenceLocal));
  // DTSTART off the rule's pattern is an occurrence (RFC 5545) that ical.js leaves out: it is an RDATE too.
  if (masterLocal === anchor && !startOnPattern(series, bounded, masterLocal)) expected.delete(masterLocal);
  const value = (local: string): string => {
    if (!timed) return basicForm(local).slice(0, 8);
    if (withRules) return basicForm(local);
    return utcValue(datesAt(local).startUtc);
  };
  const parameter = !timed ? ';VALUE=DATE' : withRules ? `;TZID=${zone}` : '';
  const dateLine = (name: string, locals: string[]): string[] =>
    locals.length === 0 ? [] : [`${name}${parameter}:${locals.sort().map(value).join(',')}`];
  const repeating = [
    ...bounded,
    ...dateLine(
      'RDATE',
      [...listedTimes].filter((t) => !expected.has(t)),
    ),
    ...dateLine(
      'EXDATE',
      [...expected].filter((t) => !listedTimes.has(t)),
    ),
  ];
  const contents = new Map(occurrences.map((o) => [o, contentOf(toICalEventData(o.object, noZones))]));
  const model = mostCommon(occurrences, (o) => contents.get(o)!);
  const uid = String(model.object.global_id).replace(/id=\d+$/, `id=${series.id}`);
  const changed = occurrences
    .map((o) => [String(o.object.modified_utc), o.changedUtc ?? ''])
    .flat()
    .sort()
    .at(-1);
  const masterDates = datesAt(masterLocal);
  const masterData = toICalEventData(withTimes(model.object, masterDates), hasZone, changed);
  const calendar = new ICalCalendar();
  // ical-generator writes one repeating line as an RRULE whatever it is: the lines go in before SUMMARY here.
  // The series' lines as its author wrote them (COUNT, open-ended), for an import of this feed by another
  // instance; readers expand the bounded lines above. Only when the feed starts where the series does.
  const authored =
    masterLocal === series.startLocal
      ? series.lines.map((line) => `X-CAL-RECURRENCE;VALUE=TEXT:${escapeText(line)}`)
      : [];
  let master = new ICalEvent({ ...masterData, id: uid }, calendar)
    .toString()
    .replace(/\r\nSUMMARY:/, `\r\n${[...repeating, ...authored].map((line) => `${line}\r\n`).join('')}SUMMARY:`);
  // Counted in a zone, the series' length goes as a DURATION of nominal days, which every reader adds alike.
  const length = series.template.lengthSeconds;
  const byDuration = timed && withRules;
  if (byDuration) master = master.replace(/^DTEND;TZID=[^:\r\n]+:\S+$/m, `DURATION:${nominalDuration(length)}`);
  const parts = [master];
  const masterContent = contentOf(masterData);
  for (const o of occurrences) {
    const own = datesAt(o.occurrenceLocal);
    const ambiguous = timed && withRules && !singleWallTime(o.occurrenceLocal, zone);
    // Readers add DURATION's days on the clock face (ical.js) or as 24 hours each (python's icalendar): an
    // occurrence whose elapsed time is not the series' length (across a change of offset) says its own times.
    const readersEnd = byDuration ? readersEndUtc(own.startLocal, length, zone) : own.endUtc;
    const elapsed = (sqlUtcToMs(o.endUtc) - sqlUtcToMs(o.startUtc)) / 1000;
    const same =
      own.startUtc === o.startUtc &&
      readersEnd === o.endUtc &&
      (!byDuration || elapsed === length) &&
      contents.get(o) === masterContent;
    if (same && !ambiguous) continue;
    const data = toICalEventData(o.object, hasZone, o.changedUtc);
    const recurrenceId = recurrenceIdOf(o.occurrenceLocal, series, withRules);
    let vevent = new ICalEvent({ ...data, id: uid, recurrenceId }, calendar).toString();
    // RECURRENCE-ID names the rule time as the rule names it, also in a skipped hour (02:30 on the night the
    // clocks skip it), where the instant it resolves to would be written as the next valid time (03:30).
    if (timed && withRules)
      vevent = vevent.replace(
        /^(RECURRENCE-ID;TZID=[^:\r\n]+):\S+$/m,
        (_line, head: string) => `${head}:${o.occurrenceLocal.replace(/[-:]/g, '').replace(' ', 'T')}`,
      );
    // A rule time in a repeated or skipped hour: readers place it differently (ical.js takes the later of a
    // repeated hour, RFC 5545 the earlier), so its instance says its instant in UTC. RECURRENCE-ID keeps the
    // wall time, which each reader resolves as it resolves the rule's instance, and so matches it.
    if (ambiguous)
      vevent = vevent
        .replace(/^DTSTART;TZID=[^:\r\n]+:\S+$/m, `DTSTART:${utcValue(o.startUtc)}`)
        .replace(/^DTEND;TZID=[^:\r\n]+:\S+$/m, `DTEND:${utcValue(o.endUtc)}`);
    parts.push(vevent);
  }
  return parts.map((part) => foldLines(part)).join('');
}

/** `YYYY-MM-DD HH:MM:SS` as iCalendar's `YYYYMMDDTHHMMSS`. */
const basicForm = (sql: string): string =>
  `${sql.slice(0, 4)}${sql.slice(5, 7)}${sql.slice(8, 10)}T${sql.slice(11, 13)}${sql.slice(14, 16)}${sql.slice(17, 19)}`;
const utcValue = (sql: string): string => `${basicForm(sql)}Z`;

/** Whether a wall time names exactly one instant in `zone` (not in an hour that is skipped or repeated). */
function singleWallTime(local: string, zone: string): boolean {
  const ms = wallMsOf(local);
  // Far from any change of offset (most occurrences), a wall time names one instant: no DateTime needed.
  if (ms !== undefined && steadyInstant(ms, zone) !== undefined) return true;
  const wall = wallTimeOf(local);
  if (!wall) return false;
  const placed = DateTime.fromObject(wall, { zone });
  if (!placed.isValid || placed.hour !== wall.hour || placed.minute !== wall.minute) return false;
  // Only near a change of offset can a wall time be repeated: most occurrences stop at this cheaper check.
  const around = [placed.minus({ hours: 3 }), placed.plus({ hours: 3 })].map((t) => t.offset);
  return around[0] === around[1] || placed.getPossibleOffsets().length === 1;
}

/** The occurrence whose content most occurrences share (the earliest of a tie): the series' VEVENT is written from it. */
function mostCommon(occurrences: ListedOccurrence[], key: (o: ListedOccurrence) => string): ListedOccurrence {
  const counts = new Map<string, { count: number; first: ListedOccurrence }>();
  for (const o of occurrences) {
    const k = key(o);
    const seen = counts.get(k);
    if (seen) seen.count++;
    else counts.set(k, { count: 1, first: o });
  }
  let best = { count: 0, first: occurrences[0] };
  for (const entry of counts.values()) if (entry.count > best.count) best = entry;
  return best.first;
}

/** The first time the series' own rules give at or after `from` (the rules anchored where the series is). */
function firstRuleTimeFrom(
  series: EventSeriesEntity,
  rules: string[],
  from: string,
  now: DateTime,
): string | undefined {
  // DTSTART is the first time its rules give (RFC 5545 §3.3.10; `expandSeries` places wall times in order,
  // and rules alone take none out): a feed from the series' start needs no expansion to know it.
  if (from <= series.startLocal) return series.startLocal;
  return ruleTimes(series, rules, series.startLocal, now).find((local) => local >= from);
}

/** Whether the rules themselves give `start` (see `rulesGiveStart`). */
function startOnPattern(series: EventSeriesEntity, rules: string[], start: string): boolean {
  const parsed = parseRecurrence(rules, series.timezone);
  const wall = wallTimeOf(start);
  return !parsed.ok || !wall || rulesGiveStart(parsed.set, wall);
}

/** The wall times `rules` give from `start`, in order. */
function ruleTimes(series: EventSeriesEntity, rules: string[], start: string, now: DateTime): string[] {
  const parsed = parseRecurrence(rules, series.timezone);
  const wall = wallTimeOf(start);
  const zone = resolveZone(series.timezone);
  if (!parsed.ok || !wall || !zone) return [start];
  const expanded = expandSeries(parsed.set, { start: wall, zone, nowUtc: now });
  return expanded.ok ? expanded.occurrences.map((o) => o.local) : [start];
}

/** The event object with other times (the series' VEVENT is written from one occurrence's object). */
function withTimes(object: EventObject, dates: EventDates): EventObject {
  return {
    ...object,
    start_date: dates.startLocal,
    end_date: dates.endLocal,
    utc_start_date: dates.startUtc,
    utc_end_date: dates.endUtc,
  };
}

/** A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma escaped. */
const escapeText = (text: string): string => text.replace(/[\\;,]/g, (c) => `\\${c}`);

/**
 * A yearly rule from 29 February in the form every reader counts alike: ical.js moves a plain `FREQ=YEARLY`
 * from a leap day to 1 March in common years, where RFC 5545 skips them; `BYMONTH=2;BYMONTHDAY=29` it skips.
 */
function leapDayForm(line: string, startLocal: string): string {
  if (
    !startLocal.startsWith('-02-29', 4) ||
    !/FREQ=YEARLY/i.test(line) ||
    /;BY(MONTH|MONTHDAY|YEARDAY|WEEKNO|DAY)=/i.test(line)
  )
    return line;
  return `${line};BYMONTH=2;BYMONTHDAY=29`;
}

/** RECURRENCE-ID: the rule time, in the form the series' DTSTART has (a date, a time in its zone, or UTC). */
function recurrenceIdOf(local: string, series: EventSeriesEntity, withRules: boolean): DateTime | Date {
  if (series.allDay) return DateTime.fromISO(local.slice(0, 10), { zone: 'UTC' });
  const wall = wallTimeOf(local);
  const placed = wall ? placeWallTime(wall, series.timezone) : DateTime.fromSQL(local, { zone: series.timezone });
  return withRules ? placed : placed.toJSDate();
}
