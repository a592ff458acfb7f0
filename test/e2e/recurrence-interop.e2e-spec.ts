import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent, type EventBody } from '../support/events';
import { expandFeed } from '../support/readers/icaljs';
import { cliWith } from '../support/run-cli';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const NOW = new Date('2030-06-01T12:00:00Z');
const WINDOW = { start_date: '2030-01-01', end_date: '2045-12-31' };
/** The python readers (Debian's python3-recurring-ical-events, python3-icalendar, python3-vobject). */
const PYTHON = '/usr/bin/python3';
const READERS = join(process.cwd(), 'test', 'support', 'readers', 'python-readers.py');

interface Rule {
  name: string;
  zone: string;
  start: string;
  end: string;
  lines: string[];
  allDay?: boolean;
}

const rule = (name: string, zone: string, start: string, end: string, ...lines: string[]): Rule => ({
  name,
  zone,
  start,
  end,
  lines,
});
const allDay = (name: string, start: string, end: string, ...lines: string[]): Rule => ({
  ...rule(name, 'Europe/Berlin', start, end, ...lines),
  allDay: true,
});

/**
 * The cases readers have read differently: changes of offset inside and between occurrences, the skipped and
 * the repeated hour (and Lord Howe's half hour), BYSETPOS, COUNT from a start off the pattern, 29 February,
 * BYWEEKNO, multi-day and midnight-crossing occurrences, zones without changes, RDATE and EXDATE.
 */
const RULES: Rule[] = [
  rule(
    'weekly across both changes',
    'Europe/Berlin',
    '2031-01-07 19:00',
    '2031-01-07 20:30',
    'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=45',
  ),
  rule('gap, an hour long', 'Europe/Berlin', '2031-03-28 02:30', '2031-03-28 03:30', 'RRULE:FREQ=DAILY;COUNT=5'),
  rule('gap, half an hour', 'Europe/Berlin', '2031-03-28 02:30', '2031-03-28 03:00', 'RRULE:FREQ=DAILY;COUNT=5'),
  rule('repeated hour', 'Europe/Berlin', '2031-10-24 02:30', '2031-10-24 03:15', 'RRULE:FREQ=DAILY;COUNT=5'),
  rule('festival', 'Europe/Berlin', '2031-03-14 18:00', '2031-03-16 18:00', 'RRULE:FREQ=WEEKLY;COUNT=6'),
  rule(
    'festival from the change',
    'Europe/Berlin',
    '2031-03-28 18:00',
    '2031-03-30 18:00',
    'RRULE:FREQ=WEEKLY;COUNT=4',
  ),
  rule('autumn festival', 'Europe/Berlin', '2031-10-17 18:00', '2031-10-19 18:00', 'RRULE:FREQ=WEEKLY;COUNT=4'),
  rule('eight-day course', 'Australia/Sydney', '2031-03-30 09:00', '2031-04-07 17:00', 'RRULE:FREQ=MONTHLY;COUNT=3'),
  rule(
    'BYSETPOS off-pattern',
    'America/New_York',
    '2031-01-07 18:00',
    '2031-01-07 19:00',
    'RRULE:FREQ=MONTHLY;BYDAY=TU,TH;BYSETPOS=2;COUNT=8',
  ),
  rule(
    'weekly off-pattern',
    'Europe/Berlin',
    '2031-01-01 18:00',
    '2031-01-01 19:00',
    'RRULE:FREQ=WEEKLY;BYDAY=FR;COUNT=4',
  ),
  rule(
    'last Friday',
    'America/New_York',
    '2031-01-31 19:00',
    '2031-01-31 21:00',
    'RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=12',
  ),
  rule(
    'last weekday',
    'America/New_York',
    '2031-01-31 09:00',
    '2031-01-31 10:00',
    'RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=8',
  ),
  rule('29 February', 'Europe/Berlin', '2032-02-29 12:00', '2032-02-29 13:00', 'RRULE:FREQ=YEARLY;COUNT=3'),
  rule(
    '29 February by month',
    'Europe/Berlin',
    '2032-02-29 12:00',
    '2032-02-29 13:00',
    'RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=3',
  ),
  rule(
    'week 20',
    'Europe/Berlin',
    '2031-05-12 10:00',
    '2031-05-12 11:00',
    'RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO;COUNT=3',
  ),
  rule('31st', 'Europe/Berlin', '2031-01-31 10:00', '2031-01-31 11:00', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=6'),
  rule('last day', 'Europe/Berlin', '2031-01-31 10:00', '2031-01-31 11:00', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=6'),
  rule(
    'every third day',
    'Europe/Berlin',
    '2031-02-01 08:00',
    '2031-02-01 09:00',
    'RRULE:FREQ=DAILY;INTERVAL=3;COUNT=10',
    'EXDATE:20310207T080000',
  ),
  rule(
    'RDATE',
    'Europe/Berlin',
    '2031-02-03 18:00',
    '2031-02-03 19:00',
    'RRULE:FREQ=WEEKLY;COUNT=4',
    'RDATE:20310206T120000',
  ),
  rule(
    'local UNTIL',
    'Europe/Berlin',
    '2031-03-03 18:00',
    '2031-03-03 19:00',
    'RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20310404T180000',
  ),
  rule('UTC UNTIL', 'Europe/Berlin', '2031-03-03 18:00', '2031-03-03 19:00', 'RRULE:FREQ=DAILY;UNTIL=20310405T160000Z'),
  rule('Sydney spring gap', 'Australia/Sydney', '2031-09-21 02:30', '2031-09-21 03:30', 'RRULE:FREQ=WEEKLY;COUNT=4'),
  rule(
    'New York repeated hour',
    'America/New_York',
    '2031-10-31 01:30',
    '2031-10-31 02:00',
    'RRULE:FREQ=DAILY;COUNT=4',
  ),
  rule('New York gap', 'America/New_York', '2031-03-07 02:30', '2031-03-07 03:30', 'RRULE:FREQ=DAILY;COUNT=4'),
  rule('Kolkata', 'Asia/Kolkata', '2031-03-03 10:00', '2031-03-03 11:00', 'RRULE:FREQ=WEEKLY;COUNT=5'),
  rule('UTC', 'UTC', '2031-03-03 10:00', '2031-03-03 11:00', 'RRULE:FREQ=DAILY;COUNT=5'),
  rule(
    'first Monday',
    'Europe/Berlin',
    '2031-01-06 18:00',
    '2031-01-06 19:00',
    'RRULE:FREQ=MONTHLY;BYDAY=1MO;COUNT=12',
  ),
  rule(
    'on the change day',
    'Europe/Berlin',
    '2031-03-30 02:30',
    '2031-03-30 04:00',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;COUNT=3',
  ),
  rule(
    'fortnightly two days',
    'Europe/Berlin',
    '2031-01-07 18:00',
    '2031-01-07 19:00',
    'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=20',
  ),
  rule(
    'Lord Howe half hour',
    'Australia/Lord_Howe',
    '2031-03-30 01:45',
    '2031-03-30 02:15',
    'RRULE:FREQ=DAILY;COUNT=14',
  ),
  rule('Dublin', 'Europe/Dublin', '2031-01-07 19:00', '2031-01-07 20:00', 'RRULE:FREQ=WEEKLY;COUNT=45'),
  rule('Sao Paulo', 'America/Sao_Paulo', '2031-01-07 19:00', '2031-01-07 20:00', 'RRULE:FREQ=WEEKLY;COUNT=10'),
  rule('across midnight', 'Europe/Berlin', '2031-03-01 23:30', '2031-03-02 01:30', 'RRULE:FREQ=WEEKLY;COUNT=35'),
  rule('three days monthly', 'Europe/Berlin', '2031-01-28 09:00', '2031-01-30 17:00', 'RRULE:FREQ=MONTHLY;COUNT=12'),
  rule(
    'New York EXDATEs',
    'America/New_York',
    '2031-01-06 18:00',
    '2031-01-06 19:00',
    'RRULE:FREQ=WEEKLY;COUNT=20',
    'EXDATE:20310120T180000,20310310T180000',
  ),
  rule(
    'RDATE in another zone',
    'Europe/Berlin',
    '2031-01-07 10:00',
    '2031-01-07 11:00',
    'RRULE:FREQ=DAILY;COUNT=3',
    'RDATE;TZID=America/New_York:20310110T120000',
  ),
  rule('daily through spring', 'Europe/Berlin', '2031-03-25 19:00', '2031-03-25 20:00', 'RRULE:FREQ=DAILY;COUNT=10'),
  rule('Sydney autumn', 'Australia/Sydney', '2031-04-01 02:30', '2031-04-01 03:30', 'RRULE:FREQ=DAILY;COUNT=10'),
  rule('open-ended', 'Europe/Berlin', '2030-09-02 18:00', '2030-09-02 19:00', 'RRULE:FREQ=WEEKLY;BYDAY=MO'),
  allDay('all-day weekly', '2031-01-07', '2031-01-07', 'RRULE:FREQ=WEEKLY;COUNT=10'),
  allDay('all-day three days', '2031-03-27', '2031-03-29', 'RRULE:FREQ=WEEKLY;COUNT=5'),
  allDay('all-day yearly', '2031-05-01', '2031-05-01', 'RRULE:FREQ=YEARLY;COUNT=3', 'EXDATE;VALUE=DATE:20320501'),
];

/**
 * One answer for every reader (issue 48): each series, created through the API, listed as JSON (`series_id=`)
 * and written as a feed, expands to the same occurrences in ical.js, in python's recurring-ical-events (on
 * icalendar) and in vobject: local start and end in UTC for timed events, the day for all-day ones (vobject
 * gives starts only). The python readers come from Debian's packages, which `.ci/run` installs.
 */
describe('every reader reads a series as the JSON lists it', () => {
  let t: TestApp;
  let editor: TestUser;
  const made = new Map<string, number>();

  beforeAll(async () => {
    t = await createTestApp({ now: NOW, env: { RESPONSE_CACHE_MB: '0' } });
    editor = await createUser(t, 'editor');
    for (const r of RULES) {
      const first = await postEvent(t, editor.auth, {
        title: r.name,
        timezone: r.zone,
        start_date: r.allDay ? r.start : `${r.start}:00`,
        end_date: r.allDay ? r.end : `${r.end}:00`,
        all_day: r.allDay === true,
        recurrence: r.lines,
      });
      made.set(r.name, first.id);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  async function listed(id: number): Promise<EventBody[]> {
    const found: EventBody[] = [];
    for (let page = 1; ; page++) {
      const res = await t.http
        .get(`${ns}/events`)
        .query({ ...WINDOW, series_id: id, per_page: 50, page })
        .expect(200);
      found.push(...(res.body.events as EventBody[]));
      if (page >= Number(res.headers['x-wp-totalpages'])) return found;
    }
  }

  async function feedOf(id: number): Promise<string> {
    const res = await t.http
      .get(`${ns}/events.ics`)
      .query({ ...WINDOW, series_id: id })
      .buffer(true)
      .expect(200);
    return typeof res.text === 'string' ? res.text : (res.body as Buffer).toString('utf8');
  }

  const asJson = (e: EventBody) =>
    e.all_day ? `${e.start_date.slice(0, 10)}|${e.title}` : `${e.utc_start_date}|${String(e.utc_end_date)}|${e.title}`;

  it('keeps every rule as its author wrote it through an import:ical of the feed by another instance', async () => {
    const second = await createTestApp({ now: NOW, env: { RESPONSE_CACHE_MB: '0' } });
    try {
      const secondEditor = await createUser(second, 'administrator');
      const dir = mkdtempSync(join(tmpdir(), 'cal-interop-'));
      for (const [name, id] of made) {
        const file = join(dir, `${id}.ics`);
        writeFileSync(file, await feedOf(id));
        const run = await cliWith(
          { DATABASE_URL: second.database.url, LOG_LEVEL: 'silent' },
          'import:ical',
          file,
          '--json',
        );
        expect([name, JSON.parse(run.stdout)]).toMatchObject([name, { failed: [] }]);
      }
      const imported = new Map<string, EventBody>();
      for (let page = 1; ; page++) {
        const res = await second.http
          .get(`${ns}/events`)
          .query({ ...WINDOW, per_page: 50, page, status: 'publish,draft' })
          .set('Authorization', secondEditor.auth)
          .expect(200);
        for (const e of res.body.events as EventBody[]) if (!imported.has(e.title)) imported.set(e.title, e);
        if (page >= Number(res.headers['x-wp-totalpages'])) break;
      }
      for (const r of RULES) {
        const source = (await listed(made.get(r.name)!))[0];
        const there = imported.get(r.name);
        expect([r.name, there?.recurrence, there?.timezone]).toEqual([r.name, source.recurrence, source.timezone]);
      }
    } finally {
      await second.close();
    }
  });

  it('has at least 40 accepted rules, each with occurrences', async () => {
    expect(made.size).toBeGreaterThanOrEqual(40);
    for (const [name, id] of made) expect([name, (await listed(id)).length > 1]).toEqual([name, true]);
  });

  it('expands each series in ical.js, recurring-ical-events and vobject as the JSON lists it', async () => {
    const json = new Map<string, string[]>();
    const feeds: Record<string, string> = {};
    for (const [name, id] of made) {
      json.set(name, (await listed(id)).map(asJson).sort());
      feeds[name] = await feedOf(id);
    }
    const python = spawnSync(PYTHON, [READERS], {
      input: JSON.stringify({ start: '2030-01-01T00:00:00', end: '2046-01-01T00:00:00', feeds }),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect({ status: python.status, stderr: python.stderr }).toEqual({ status: 0, stderr: '' });
    const readers = JSON.parse(python.stdout) as Record<string, { rie: string[]; vobject: string[] }>;
    const disagreements: string[] = [];
    for (const [name, expected] of json) {
      const starts = expected.map((line) => line.split('|')[0]).sort();
      const views: [string, string[], string[]][] = [
        ['ical.js', expandFeed(feeds[name]), expected],
        ['recurring-ical-events', readers[name].rie, expected],
        ['vobject', readers[name].vobject, starts],
      ];
      for (const [reader, got, want] of views) {
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          const missing = want.filter((w) => !got.includes(w));
          const extra = got.filter((g) => !want.includes(g));
          disagreements.push(
            `${name} in ${reader}: missing ${JSON.stringify(missing)}, extra ${JSON.stringify(extra)}`,
          );
        }
      }
    }
    // vobject's own bugs, which the feed does not yet avoid (issue 48, left open): it reads a series whose
    // first occurrence is at +00:00 (Dublin in winter) as UTC all year, and places some 2033 instants of Berlin
    // an hour off. Any other disagreement, or one of these gone, fails here.
    const known = new Set(['week 20 in vobject', 'on the change day in vobject', 'Dublin in vobject']);
    expect(disagreements.filter((d) => ![...known].some((k) => d.startsWith(`${k}:`)))).toEqual([]);
    expect(disagreements.map((d) => d.slice(0, d.indexOf(':'))).sort()).toEqual([...known].sort());
  });
});
