import { wallTimeOf } from './wall-time';

/** RFC 5545 §3.3.4 DATE (`20270306`) and §3.3.5 DATE-TIME (`20270306T100000`, `…Z`), nothing looser. */
const DATE_VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;

/**
 * Why the text of one iCalendar date value is not a date, or undefined when it is one. ical.js reads
 * `2027` and `20270306T1000` without a word and throws only when the value is first used, and it rolls
 * month 13 or day 40 into a later date: every date a client or a feed sends is checked here first, so a
 * malformed or impossible one is a clear refusal naming the value, never a 500 or a silently moved date.
 */
export function icalDateProblem(text: string): string | undefined {
  const m = DATE_VALUE.exec(text);
  if (!m) return `${text} is not a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS, Z for UTC)`;
  const [year, month, day, hour = '00', minute = '00', second = '00'] = m.slice(1);
  if (wallTimeOf(`${year}-${month}-${day} ${hour}:${minute}:${second}`)) return undefined;
  return `${text} is not a date that exists`;
}

/**
 * The problem with the first malformed value of an RDATE or EXDATE line's value list (`a,b,…`), or with its
 * `VALUE=PERIOD` values' start dates; undefined when every value is a date.
 */
export function icalDateListProblem(values: string): string | undefined {
  for (const value of values.split(',')) {
    const start = value.split('/')[0];
    const problem = icalDateProblem(start.trim().toUpperCase());
    if (problem) return problem;
  }
  return undefined;
}
