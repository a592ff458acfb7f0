import { rulePartsProblem } from '../../../common/dates/ical-rule-parts';

/** What one iCalendar text may hold before it is parsed (`IMPORTS_MAX_*`). */
export interface IcalLimits {
  vevents: number;
  vtimezones: number;
  /** STANDARD and DAYLIGHT components of one VTIMEZONE. */
  observances: number;
  /** Content lines of one component, each value of a list (`RDATE:a,b,c`) counted. */
  properties: number;
}

/** Components nest VCALENDAR > VEVENT > VALARM, VCALENDAR > VTIMEZONE > STANDARD: deeper is no calendar. */
const MAX_DEPTH = 4;
const OBSERVANCES = new Set(['STANDARD', 'DAYLIGHT']);

/**
 * Refuses, in one pass over the lines and before anything is parsed, a text that holds more than `limits`
 * allow: the parse and the zone arithmetic of ical.js grow with them (50 VTIMEZONEs of 200 observances
 * took 104 s and a whole heap). A zone's observance rule must be yearly and well formed: ical.js
 * steps a daily rule that never matches forever. The reason names the component and the setting.
 */
export function icalBudgetProblem(text: string, limits: IcalLimits): string | undefined {
  const stack: { name: string; properties: number; observances: number }[] = [];
  let vevents = 0;
  let vtimezones = 0;
  let lineNo = 0;
  for (const raw of text.split(/\r?\n/)) {
    lineNo++;
    // A folded line goes on the one before: it is no new property.
    if (raw === '' || raw[0] === ' ' || raw[0] === '\t') continue;
    const line = raw.toUpperCase();
    const top = stack.at(-1);
    if (line.startsWith('BEGIN:')) {
      const name = line.slice(6).trim();
      if (stack.length >= MAX_DEPTH) return `line ${lineNo}: components nested more than ${MAX_DEPTH} deep`;
      if (name === 'VEVENT' && ++vevents > limits.vevents)
        return `more than ${limits.vevents} VEVENTs (IMPORTS_MAX_VEVENTS)`;
      if (name === 'VTIMEZONE' && ++vtimezones > limits.vtimezones)
        return `more than ${limits.vtimezones} VTIMEZONEs (IMPORTS_MAX_VTIMEZONES)`;
      if (OBSERVANCES.has(name) && top?.name === 'VTIMEZONE' && ++top.observances > limits.observances)
        return `line ${lineNo}: a VTIMEZONE with more than ${limits.observances} observances (IMPORTS_MAX_OBSERVANCES)`;
      stack.push({ name, properties: 0, observances: 0 });
      continue;
    }
    if (line.startsWith('END:')) {
      stack.pop();
      continue;
    }
    if (!top) continue;
    const values = /^(RDATE|EXDATE)[;:]/.test(line) ? line.split(',').length : 1;
    top.properties += values;
    if (top.properties > limits.properties)
      return `line ${lineNo}: a ${top.name} with more than ${limits.properties} properties (IMPORTS_MAX_PROPERTIES)`;
    if (OBSERVANCES.has(top.name) && line.startsWith('RRULE')) {
      const problem = observanceRuleProblem(raw.slice(raw.indexOf(':') + 1));
      if (problem) return `line ${lineNo}: a VTIMEZONE's RRULE: ${problem}`;
    }
  }
  return undefined;
}

function observanceRuleProblem(rule: string): string | undefined {
  const problem = rulePartsProblem(rule);
  if (problem) return problem;
  return /(^|;)FREQ=YEARLY(;|$)/i.test(rule) ? undefined : 'a time zone changes its offset yearly (FREQ=YEARLY)';
}
