import { Frequency, type RRule } from 'rrule';

/**
 * Most candidate instants one rule may look through to find its occurrences: about 137 years of a daily
 * rule, of a yearly one, or of a monthly `BYDAY`. A rule that almost never matches
 * (`FREQ=DAILY;BYSETPOS=5`) is refused once it has looked through that many, in a fraction of a second,
 * instead of holding the event loop until year 9999 as rrule would.
 */
export const MAX_RULE_CANDIDATES = 50_000;

/** The days rrule looks at in one period of each frequency (its day set). */
const DAYS_PER_PERIOD: Partial<Record<Frequency, number>> = {
  [Frequency.YEARLY]: 366,
  [Frequency.MONTHLY]: 31,
  [Frequency.WEEKLY]: 7,
  [Frequency.DAILY]: 1,
};

export type BoundedDates = { ok: true; dates: Date[] } | { ok: false; reason: 'candidates' | 'occurrences' };

/** The candidate instants one period costs: its days, times the day's times when BYSETPOS picks among them. */
export function candidatesPerPeriod(rule: RRule): number {
  const { freq, bysetpos, byhour, byminute, bysecond } = rule.options;
  const times = (byhour?.length || 1) * (byminute?.length || 1) * (bysecond?.length || 1);
  return (DAYS_PER_PERIOD[freq] ?? 1) * (bysetpos?.length ? times : 1);
}

/**
 * rrule's `between`, bounded twice: by the occurrences it may return (`occurrences`: more is a refusal)
 * and by the candidates it may look through (`candidates`), which rrule itself never bounds. rrule calls
 * back only on a match, so a rule that never matches would run to year 9999; its iteration reads the
 * rule's `interval` once to start and twice after each period (to stop on 0, and to step), which is where the
 * periods are counted here and the iteration is ended by an interval of 0. rrule is pinned to the
 * version whose loop this relies on, and `bounded-rule.spec.ts` fails if that loop changes.
 */
export function boundedBetween(
  rule: RRule,
  after: Date,
  before: Date,
  limits: { candidates: number; occurrences: number },
): BoundedDates {
  const maxPeriods = Math.floor(limits.candidates / candidatesPerPeriod(rule));
  if (maxPeriods < 1) return { ok: false, reason: 'candidates' };
  const options = rule.options;
  let reads = 0;
  let exhausted = false;
  const counted = { ...options };
  Object.defineProperty(counted, 'interval', {
    get: () => {
      reads++;
      exhausted ||= reads > 2 * maxPeriods - 1;
      return exhausted ? 0 : options.interval;
    },
  });
  let tooMany = false;
  rule.options = counted;
  try {
    const dates = rule.between(after, before, true, (_date, i) => {
      tooMany = i >= limits.occurrences;
      return !tooMany;
    });
    if (tooMany) return { ok: false, reason: 'occurrences' };
    return exhausted ? { ok: false, reason: 'candidates' } : { ok: true, dates };
  } finally {
    rule.options = options;
  }
}
