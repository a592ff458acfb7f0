import fc from 'fast-check';

/**
 * RFC 5545 recurrence lines as the events API takes them (`recurrence`), generated from the grammar so that a
 * fuzz reaches the values a parser trips on: mostly well-formed rules and dates (bounded, so that a valid one
 * makes a small series), with hostile values spliced in part by part — malformed and impossible dates, parts
 * out of range or repeated, ordinals where the frequency forbids them, unknown parts and broken syntax.
 */
const FREQS = ['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

const two = (n: number) => String(n).padStart(2, '0');

/** A DATE or DATE-TIME near the series' start (2031), or one of the malformed and impossible values. */
export const icalDateValue: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .record({
        m: fc.integer({ min: 1, max: 12 }),
        d: fc.integer({ min: 1, max: 28 }),
        h: fc.integer({ min: 0, max: 23 }),
      })
      .chain(({ m, d, h }) =>
        fc.constantFrom(
          `2031${two(m)}${two(d)}`,
          `2031${two(m)}${two(d)}T${two(h)}0000`,
          `2031${two(m)}${two(d)}T${two(h)}0000Z`,
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '2027',
      '20270306T10000',
      '20270306T1000',
      '20271340',
      '20270230',
      '20270231T100000',
      '20270101T250000',
      '20270101T106000',
      '00000101',
      '99991231T235960',
      '2027-03-06',
      '20270306T100000+0100',
      '20270306t100000z',
      '',
      ' ',
      'null',
      'NaN',
      '-20270306',
    ),
  },
);

const integerPart = (min: number, max: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 12, arbitrary: fc.integer({ min, max }).map(String) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '0',
        String(min - 1),
        String(max + 1),
        '-0',
        '+1',
        '1.5',
        'x',
        '',
        '99999999999999999999',
      ),
    },
  );

/** BYDAY: days, with ordinals where the frequency allows them (MONTHLY, YEARLY) and now and then where it does not. */
const byDay = (ordinals: boolean): fc.Arbitrary<string> => {
  const ordinal = fc.oneof(
    fc
      .integer({ min: -5, max: 5 })
      .filter((n) => n !== 0)
      .map(String),
    fc.constantFrom('0', '+54', '-54', '+1'),
  );
  const prefix = ordinals
    ? fc.oneof(fc.constant(''), ordinal)
    : fc.oneof({ weight: 9, arbitrary: fc.constant('') }, { weight: 1, arbitrary: ordinal });
  const day = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...DAYS) },
    { weight: 1, arbitrary: fc.constantFrom('XX', 'mo', 'MON', '') },
  );
  return fc
    .array(
      fc.tuple(prefix, day).map(([n, d]) => `${n}${d}`),
      { minLength: 1, maxLength: 4 },
    )
    .map((days) => days.join(','));
};

const listOf = (part: fc.Arbitrary<string>) => fc.array(part, { minLength: 1, maxLength: 3 }).map((xs) => xs.join(','));

/** `NAME=value` parts a rule may have (each at most once, unless `repeat` adds one again). */
const ruleParts = (freq: string): fc.Arbitrary<string>[] => [
  integerPart(1, 50).map((v) => `INTERVAL=${v}`),
  listOf(integerPart(-31, 31)).map((v) => `BYMONTHDAY=${v}`),
  listOf(integerPart(1, 12)).map((v) => `BYMONTH=${v}`),
  listOf(integerPart(-366, 366)).map((v) => `BYSETPOS=${v}`),
  listOf(integerPart(0, 23)).map((v) => `BYHOUR=${v}`),
  listOf(integerPart(0, 59)).map((v) => `BYMINUTE=${v}`),
  listOf(integerPart(0, 60)).map((v) => `BYSECOND=${v}`),
  listOf(integerPart(-366, 366)).map((v) => `BYYEARDAY=${v}`),
  listOf(integerPart(-53, 53)).map((v) => `BYWEEKNO=${v}`),
  byDay(freq === 'MONTHLY' || freq === 'YEARLY').map((v) => `BYDAY=${v}`),
  fc.constantFrom(...DAYS, 'XX').map((v) => `WKST=${v}`),
  fc.constantFrom('X-NAME=1', 'FOO=BAR', 'COUNT', '=', 'RSCALE=GREGORIAN', 'SKIP=OMIT'),
];

/** One RRULE line: a frequency, a bound (COUNT or UNTIL, almost always), some parts, now and then broken. */
export const rruleLine: fc.Arbitrary<string> = fc
  .oneof(
    // Sub-daily frequencies are refused whole (a series repeats at most daily), so they come less often.
    { weight: 12, arbitrary: fc.constantFrom('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY') },
    { weight: 2, arbitrary: fc.constantFrom(...FREQS) },
    { weight: 1, arbitrary: fc.constantFrom('', 'daily', 'FORTNIGHTLY', 'DAILY;FREQ=WEEKLY') },
  )
  .chain((freq) =>
    fc.record({
      freq: fc.constant(freq),
      bound: fc.oneof(
        { weight: 5, arbitrary: integerPart(1, 12).map((v) => `COUNT=${v}`) },
        { weight: 3, arbitrary: icalDateValue.map((v) => `UNTIL=${v}`) },
        { weight: 1, arbitrary: fc.constantFrom('COUNT=3;UNTIL=20311231', 'COUNT=3;COUNT=4', 'COUNT=99999999') },
      ),
      parts: fc
        .subarray(ruleParts(freq), { maxLength: 3 })
        .chain((parts): fc.Arbitrary<string[]> => (parts.length === 0 ? fc.constant([]) : fc.tuple(...parts))),
      shape: fc.oneof(
        { weight: 12, arbitrary: fc.constant('plain') },
        { weight: 1, arbitrary: fc.constantFrom('lower', 'spaced', 'trailing', 'noprefix') },
      ),
    }),
  )
  .map(({ freq, bound, parts, shape }) => {
    const body = [`FREQ=${freq}`, bound, ...parts].join(';');
    switch (shape) {
      case 'lower':
        return `rrule:${body.toLowerCase()}`;
      case 'spaced':
        return `RRULE: ${body.replaceAll(';', ' ; ')}`;
      case 'trailing':
        return `RRULE:${body};`;
      case 'noprefix':
        return body;
      default:
        return `RRULE:${body}`;
    }
  });

/** An RDATE or EXDATE line: its dates, with or without `TZID` or `VALUE=DATE`, now and then broken. */
export const dateListLine: fc.Arbitrary<string> = fc
  .record({
    name: fc.constantFrom('RDATE', 'EXDATE', 'EXDATE', 'RDATE'),
    params: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('', '', ';TZID=Europe/Berlin', ';VALUE=DATE', ';VALUE=DATE-TIME') },
      { weight: 1, arbitrary: fc.constantFrom(';TZID=Not/AZone', ';VALUE=PERIOD', ';TZID=', ';X-P=1') },
    ),
    values: fc.array(icalDateValue, { minLength: 1, maxLength: 3 }),
  })
  .map(({ name, params, values }) => `${name}${params}:${values.join(',')}`);

/** A `recurrence` value: usually a rule with a few dates, now and then junk lines. */
export const recurrenceLines: fc.Arbitrary<string[]> = fc
  .tuple(
    fc.oneof(
      { weight: 8, arbitrary: rruleLine.map((l) => [l]) },
      { weight: 1, arbitrary: fc.constant([]) },
      { weight: 1, arbitrary: fc.array(rruleLine, { minLength: 2, maxLength: 2 }) },
    ),
    fc.array(dateListLine, { maxLength: 2 }),
    fc.oneof(
      { weight: 10, arbitrary: fc.constant([]) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          ['DTSTART:20310101T100000'],
          ['BEGIN:VEVENT'],
          [''],
          ['RRULE'],
          ['EXRULE:FREQ=DAILY;COUNT=2'],
          ['X-FOO:bar'],
        ),
      },
    ),
  )
  .map(([rules, dates, junk]) => [...rules, ...dates, ...junk]);
