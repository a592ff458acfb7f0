import { icalDateProblem } from './ical-date-value';

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const FREQUENCIES = ['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];

/** A list of whole numbers in `min..max`, negatives allowed (from the end) where `signed`, zero never. */
const numbers =
  (min: number, max: number, signed: boolean) =>
  (value: string): string | undefined => {
    for (const item of value.split(',')) {
      if (!/^[+-]?\d{1,3}$/.test(item)) return `${item || 'an empty value'} is not a whole number`;
      const n = Number(item);
      const size = Math.abs(n);
      if ((n < 0 && !signed) || size < min || size > max || (signed && n === 0))
        return `${item} is outside ${signed ? `±${Math.max(min, 1)}` : min}..${max}`;
    }
    return undefined;
  };

/** BYDAY: weekdays, each with an optional ordinal (`2TU`, `-1FR`) that only monthly and yearly rules take. */
function byDayProblem(value: string, freq: string): string | undefined {
  for (const item of value.split(',')) {
    const m = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(item);
    if (!m || !WEEKDAYS.includes(m[2]))
      return `${item || 'an empty value'} is not a weekday (SU, MO, … with an ordinal)`;
    if (m[1] === undefined) continue;
    const ordinal = Math.abs(Number(m[1]));
    const max = freq === 'MONTHLY' ? 5 : freq === 'YEARLY' ? 53 : 0;
    if (max === 0) return `${item}: an ordinal weekday needs FREQ=MONTHLY or FREQ=YEARLY`;
    if (ordinal < 1 || ordinal > max) return `${item}: the ordinal is outside ±1..${max}`;
  }
  return undefined;
}

/** RFC 5545 §3.3.10's value grammar, part by part: what ical.js would reject with a riddle or roll over. */
const PART_CHECKS: Record<string, (value: string, freq: string) => string | undefined> = {
  FREQ: (v) => (FREQUENCIES.includes(v) ? undefined : `${v} is not a frequency`),
  UNTIL: (v) => icalDateProblem(v),
  COUNT: (v) => (/^[1-9]\d{0,5}$/.test(v) ? undefined : `${v} is not a whole number from 1`),
  INTERVAL: (v) => (/^[1-9]\d{0,3}$/.test(v) ? undefined : `${v} is not a whole number from 1`),
  BYSECOND: numbers(0, 60, false),
  BYMINUTE: numbers(0, 59, false),
  BYHOUR: numbers(0, 23, false),
  BYDAY: byDayProblem,
  BYMONTHDAY: numbers(1, 31, true),
  BYYEARDAY: numbers(1, 366, true),
  BYWEEKNO: numbers(1, 53, true),
  BYMONTH: numbers(1, 12, false),
  BYSETPOS: numbers(1, 366, true),
  WKST: (v) => (WEEKDAYS.includes(v) ? undefined : `${v} is not a weekday`),
};

/**
 * The problem with an RRULE's value (`FREQ=…;…`), naming the part and the value; undefined when every part
 * is one RFC 5545 defines, once, with a value in its range.
 */
export function rulePartsProblem(value: string): string | undefined {
  const parts = value.split(';').map((part) => {
    const at = part.indexOf('=');
    return at === -1
      ? { name: part.toUpperCase(), value: '' }
      : { name: part.slice(0, at).toUpperCase(), value: part.slice(at + 1).toUpperCase() };
  });
  const seen = new Set<string>();
  for (const { name } of parts) {
    if (!(name in PART_CHECKS)) return `${name || 'an empty part'} is not an RRULE part`;
    if (seen.has(name)) return `${name} is given twice`;
    seen.add(name);
  }
  const freq = parts.find((p) => p.name === 'FREQ')?.value;
  if (freq === undefined) return 'FREQ is required';
  for (const { name, value: v } of parts) {
    const problem = PART_CHECKS[name](v, freq);
    if (problem) return `${name}=${v}: ${problem}`;
  }
  return undefined;
}
