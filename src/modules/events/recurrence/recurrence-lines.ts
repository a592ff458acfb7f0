import ICAL from 'ical.js';
import type { DateTime } from 'luxon';
import { resolveZone } from '../../../common/dates/date-input';
import { icalDateListProblem } from '../../../common/dates/ical-date-value';
import { wallTimeToUtc, type WallTime } from '../../../common/dates/wall-time';
import { rulePartsProblem } from '../../../common/dates/ical-rule-parts';

/** Most lines a series may have, and the longest line: a bound on what one write parses. */
export const MAX_RECURRENCE_LINES = 100;
export const MAX_RECURRENCE_LINE_LENGTH = 1000;

/** A date a line names: an instant (UTC, or a local time in a zone), or a whole day (`VALUE=DATE`). */
export type LineDate = { kind: 'instant'; utc: DateTime } | { kind: 'day'; wall: WallTime };

/** A series' lines, parsed: the rules (RRULE), the extra dates (RDATE) and the excluded ones (EXDATE). */
export interface RecurrenceSet {
  /** As given, for the event's `recurrence` member and the iCalendar feed. */
  lines: string[];
  rules: ICAL.Recur[];
  rdates: LineDate[];
  exdates: LineDate[];
}

export type RecurrenceParse = { ok: true; set: RecurrenceSet } | { ok: false; problem: string };

const NAMES = ['RRULE', 'RDATE', 'EXDATE'] as const;

/**
 * Reads a `recurrence` write value: RFC 5545 content lines, each `RRULE:…`, `RDATE…:…` or `EXDATE…:…`.
 * A date without `TZID` and without `Z` is a local time in `zone` (the event's). `EXRULE` (deprecated by
 * RFC 5545) and anything else is refused, with a problem that says which line and why.
 */
export function parseRecurrence(value: unknown, zone: string): RecurrenceParse {
  if (!Array.isArray(value)) return { ok: false, problem: 'must be a list of RRULE, RDATE and EXDATE lines' };
  if (value.length > MAX_RECURRENCE_LINES) {
    return { ok: false, problem: `must have at most ${MAX_RECURRENCE_LINES} lines` };
  }
  const set: RecurrenceSet = { lines: [], rules: [], rdates: [], exdates: [] };
  for (const [i, line] of value.entries()) {
    const problem = addLine(set, line, zone);
    if (problem) return { ok: false, problem: `line ${i + 1}: ${problem}` };
  }
  if (set.rules.length === 0 && set.rdates.length === 0) {
    return { ok: false, problem: 'needs an RRULE or an RDATE line' };
  }
  return { ok: true, set };
}

function addLine(set: RecurrenceSet, line: unknown, zone: string): string | undefined {
  if (typeof line !== 'string') return 'must be a string';
  if (line.length > MAX_RECURRENCE_LINE_LENGTH) return `must be at most ${MAX_RECURRENCE_LINE_LENGTH} characters`;
  // Control characters (a folded or a second line smuggled in) have no place in one content line.
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  if (/[\u0000-\u001f\u007f]/.test(line)) return 'must be one line without control characters';
  const name = /^([A-Za-z-]+)[;:]/.exec(line)?.[1].toUpperCase();
  if (name === 'EXRULE') return 'EXRULE is not supported (RFC 5545 deprecates it): use EXDATE';
  if (!name || !(NAMES as readonly string[]).includes(name)) return 'must start with RRULE:, RDATE or EXDATE';
  const value = valueOf(line);
  const valueProblem = name === 'RRULE' ? rulePartsProblem(value) : icalDateListProblem(value);
  if (valueProblem) return valueProblem;
  let property: ICAL.Property;
  try {
    property = ICAL.Property.fromString(line);
  } catch {
    return `is not a valid ${name} line`;
  }
  if (name === 'RRULE') return addRule(set, property, line);
  const dates = datesOf(property, zone, line);
  if (typeof dates === 'string') return dates;
  (name === 'RDATE' ? set.rdates : set.exdates).push(...dates);
  set.lines.push(line);
  return undefined;
}

/** The value of a content line: what follows the first colon outside a quoted parameter value. */
function valueOf(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    else if (line[i] === ':' && !quoted) return line.slice(i + 1);
  }
  return '';
}

/** An RRULE whose parts `rulePartsProblem` found well formed. */
function addRule(set: RecurrenceSet, property: ICAL.Property, line: string): string | undefined {
  let rule: unknown;
  try {
    rule = property.getFirstValue();
  } catch {
    return 'is not a valid RRULE';
  }
  if (!(rule instanceof ICAL.Recur) || !rule.freq) return 'is not a valid RRULE (FREQ is required)';
  if (['SECONDLY', 'MINUTELY', 'HOURLY'].includes(rule.freq)) {
    return `FREQ=${rule.freq} is not supported: a series repeats at most daily`;
  }
  if (rule.count !== null && rule.until !== null) return 'must not have both COUNT and UNTIL';
  set.rules.push(rule);
  set.lines.push(line);
  return undefined;
}

/** The dates of one RDATE or EXDATE line, in the order written; a problem for a line that is none. */
export function lineDates(line: string, zone: string): LineDate[] | string {
  const problem = icalDateListProblem(valueOf(line));
  if (problem) return problem;
  try {
    return datesOf(ICAL.Property.fromString(line), zone, line);
  } catch {
    return 'is not a valid date line';
  }
}

/**
 * A value of the other type than its line's, though each has the RFC 5545 form: a DATE where `VALUE` leaves
 * DATE-TIME (the default), or a DATE-TIME under `VALUE=DATE` (which ical.js would quietly cut to its date).
 */
function mixedValueProblem(line: string): string | undefined {
  const text = valueOf(line);
  // ical.js guesses the type from the values, so the line's own parameter is read from the line.
  const dates = /;VALUE=DATE(?=[;:])/i.test(line.slice(0, line.length - text.length));
  const odd = text.split(',').find((v) => v.includes('T') === dates);
  if (odd === undefined) return undefined;
  return dates
    ? `${odd} is a date-time, but VALUE=DATE asks for dates`
    : `${odd} is a date, but the line's values are date-times (VALUE=DATE makes them dates)`;
}

/** The dates of an RDATE or EXDATE line; a problem for a date that is not one. */
function datesOf(property: ICAL.Property, zone: string, line: string): LineDate[] | string {
  const tzid = property.getParameter('tzid');
  const lineZone = resolveZone(typeof tzid === 'string' ? tzid : zone);
  if (!lineZone) return `TZID ${String(tzid)} is not a known time zone`;
  const dates: LineDate[] = [];
  const mixed = mixedValueProblem(line);
  if (mixed) return mixed;
  let values: unknown[];
  try {
    values = property.getValues();
  } catch {
    return `has a value that is not a date: ${valueOf(line)}`;
  }
  for (const value of values) {
    if (!(value instanceof ICAL.Time)) return 'PERIOD values are not supported: give start dates';
    const wall = { year: value.year, month: value.month, day: value.day, hour: 0, minute: 0, second: 0 };
    if (value.isDate) {
      dates.push({ kind: 'day', wall });
      continue;
    }
    Object.assign(wall, { hour: value.hour, minute: value.minute, second: value.second });
    const utc = value.zone === ICAL.Timezone.utcTimezone ? 'UTC' : lineZone;
    const at = wallTimeToUtc(wall, utc);
    if (!at.isValid) return `${value.toString()} is not a date`;
    dates.push({ kind: 'instant', utc: at });
  }
  return dates;
}
