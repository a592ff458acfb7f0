import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { cliWith } from '../support/run-cli';
import type { EventBody } from '../support/events';
import { withoutPort } from '../support/statements';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';

/** An iCalendar file with time zones, all-day, multi-day, DST-crossing, a series with exceptions, cancelled events. */
function calendar(version: 1 | 2): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//import//EN',
    'BEGIN:VEVENT',
    'UID:berlin-concert@example.org',
    'DTSTAMP:20260101T000000Z',
    'DTSTART;TZID=Europe/Berlin:20270328T013000',
    'DTEND;TZID=Europe/Berlin:20270328T040000',
    `SUMMARY:${version === 1 ? 'Night concert' : 'Night concert (new hall)'}`,
    'DESCRIPTION:Across the change to summer time.\\nBring <ears>.',
    `LOCATION:${version === 1 ? 'Old Hall, Berlin' : 'New Hall, Berlin'}`,
    'ORGANIZER;CN=Night Owls:mailto:owls@example.org',
    'CATEGORIES:Concerts,Night',
    'URL:https://example.org/night',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:utc-talk@example.org',
    'DTSTAMP:20260101T000000Z',
    'DTSTART:20270115T170000Z',
    'DTEND:20270115T183000Z',
    'SUMMARY:UTC talk',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:floating@example.org',
    'DTSTAMP:20260101T000000Z',
    'DTSTART:20270116T100000',
    'DTEND:20270116T110000',
    'SUMMARY:Floating breakfast',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:fair@example.org',
    'DTSTAMP:20260101T000000Z',
    'DTSTART;VALUE=DATE:20270301',
    'DTEND;VALUE=DATE:20270304',
    'SUMMARY:Book fair',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:new-york@example.org',
    'DTSTAMP:20260101T000000Z',
    'DTSTART;TZID=America/New_York:20270310T200000',
    'DTEND;TZID=America/New_York:20270310T220000',
    'SUMMARY:New York jazz',
    `STATUS:${version === 1 ? 'CONFIRMED' : 'CANCELLED'}`,
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:never@example.org',
    'DTSTAMP:20260101T000000Z',
    'DTSTART:20270401T100000Z',
    'SUMMARY:Cancelled before anyone saw it',
    'STATUS:CANCELLED',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:yoga@example.org',
    'DTSTAMP:20260101T000000Z',
    'DTSTART;TZID=Europe/Berlin:20270302T190000',
    'DTEND;TZID=Europe/Berlin:20270302T200000',
    'RRULE:FREQ=WEEKLY;COUNT=6',
    'EXDATE;TZID=Europe/Berlin:20270316T190000',
    'SUMMARY:Yoga',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:yoga@example.org',
    'DTSTAMP:20260101T000000Z',
    'RECURRENCE-ID;TZID=Europe/Berlin:20270323T190000',
    'DTSTART;TZID=Europe/Berlin:20270324T180000',
    'DTEND;TZID=Europe/Berlin:20270324T190000',
    'SUMMARY:Yoga (moved)',
    'END:VEVENT',
    ...(version === 1
      ? [
          'BEGIN:VEVENT',
          'UID:gone@example.org',
          'DTSTAMP:20260101T000000Z',
          'DTSTART:20270501T100000Z',
          'SUMMARY:Gone later',
          'END:VEVENT',
        ]
      : []),
    'BEGIN:VEVENT',
    'UID:bad@example.org',
    'DTSTAMP:20260101T000000Z',
    'DTSTART:20270601T100000Z',
    'DTEND:20270501T100000Z',
    'SUMMARY:Ends before it starts',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.join('\r\n')}\r\n`;
}

describe('import:ical', () => {
  let t: TestApp;
  let admin: TestUser;
  const dir = mkdtempSync(join(tmpdir(), 'cal-import-'));
  const file = join(dir, 'feed.ics');

  const cli = (...args: string[]) =>
    cliWith({ DATABASE_URL: t.database.url, LOG_LEVEL: 'silent', SITE_TIMEZONE: 'Europe/Berlin' }, ...args);

  async function all(): Promise<EventBody[]> {
    const res = await t.http
      .get(`${ns}/events`)
      .query({ start_date: '2027-01-01', end_date: '2027-12-31', per_page: 100, status: 'publish,trash' })
      .set('Authorization', admin.auth)
      .expect(200);
    // (supertest listens on a new port for each request: the links' port is left out.)
    return withoutPort(res.body.events as EventBody[]);
  }
  const byTitle = (events: EventBody[], title: string) => events.filter((e) => e.title === title);

  beforeAll(async () => {
    t = await createTestApp({ env: { SITE_TIMEZONE: 'Europe/Berlin' } });
    admin = await createUser(t, 'administrator');
  });
  afterAll(async () => {
    await t.close();
  });

  it('a dry run writes nothing and says what an import would do', async () => {
    writeFileSync(file, calendar(1));
    const run = await cli('import:ical', file, '--dry-run', '--json');
    const summary = JSON.parse(run.stdout) as {
      created: number;
      failed: { id: string; reason: string }[];
      skipped: unknown[];
    };
    expect([summary.created, summary.skipped.length]).toEqual([7, 1]);
    expect(summary.failed).toEqual([{ id: 'bad@example.org', reason: expect.stringContaining('end_date') }]);
    expect(run.code).toBe(1);
    expect(await all()).toEqual([]);
  });

  it('imports every VEVENT to the same instants: zones, UTC, floating, all-day, multi-day, DST, a series', async () => {
    const run = await cli('import:ical', file, '--category', 'Imported', '--json');
    const summary = JSON.parse(run.stdout) as { created: number; failed: unknown[] };
    expect(summary.created).toBe(7);
    expect(summary.failed).toHaveLength(1);
    const events = await all();
    const [night] = byTitle(events, 'Night concert');
    // 01:30 is before the change, 04:00 after it: two and a half hours of wall time, one and a half real.
    expect([night.utc_start_date, night.utc_end_date, night.timezone]).toEqual([
      '2027-03-28 00:30:00',
      '2027-03-28 02:00:00',
      'Europe/Berlin',
    ]);
    expect(night.description).toBe('<p>Across the change to summer time.<br />Bring &lt;ears&gt;.</p>');
    expect((night.venue as { venue: string }).venue).toBe('Old Hall');
    expect((night.organizer as { organizer: string; email: string }[])[0]).toMatchObject({
      organizer: 'Night Owls',
      email: 'owls@example.org',
    });
    expect((night.categories as { name: string }[]).map((c) => c.name).sort()).toEqual([
      'Concerts',
      'Imported',
      'Night',
    ]);
    expect(night.website).toBe('https://example.org/night');
    expect(byTitle(events, 'UTC talk')[0]).toMatchObject({ utc_start_date: '2027-01-15 17:00:00', timezone: 'UTC' });
    expect(byTitle(events, 'Floating breakfast')[0]).toMatchObject({
      start_date: '2027-01-16 10:00:00',
      timezone: 'Europe/Berlin',
    });
    expect(byTitle(events, 'Book fair')[0]).toMatchObject({
      all_day: true,
      start_date: '2027-03-01 00:00:00',
      end_date: '2027-03-03 23:59:59',
    });
    expect(byTitle(events, 'New York jazz')[0]).toMatchObject({ utc_start_date: '2027-03-11 01:00:00' });
    const yoga = events.filter((e) => String(e.title).startsWith('Yoga'));
    expect(yoga.map((e) => [e.start_date, e.title])).toEqual([
      ['2027-03-02 19:00:00', 'Yoga'],
      ['2027-03-09 19:00:00', 'Yoga'],
      ['2027-03-24 18:00:00', 'Yoga (moved)'],
      ['2027-03-30 19:00:00', 'Yoga'],
      ['2027-04-06 19:00:00', 'Yoga'],
    ]);
    expect(new Set(yoga.map((e) => e.series_id)).size).toBe(1);
    expect(byTitle(events, 'Cancelled before anyone saw it')).toEqual([]);
  });

  it('a second run of the same file changes nothing', async () => {
    const before = await all();
    const run = await cli('import:ical', file, '--category', 'Imported', '--json');
    const summary = JSON.parse(run.stdout) as { created: number; updated: number; unchanged: number; trashed: number };
    expect([summary.created, summary.updated, summary.unchanged, summary.trashed]).toEqual([0, 0, 7, 0]);
    expect(await all()).toEqual(before);
  });

  it('a changed file updates what changed, trashes what was cancelled or left, and keeps the ids', async () => {
    const before = await all();
    writeFileSync(file, calendar(2));
    const run = await cli('import:ical', file, '--category', 'Imported', '--json');
    const summary = JSON.parse(run.stdout) as { created: number; updated: number; unchanged: number; trashed: number };
    expect([summary.created, summary.updated, summary.trashed]).toEqual([0, 1, 2]);
    const after = await all();
    const night = byTitle(after, 'Night concert (new hall)')[0];
    expect(night.id).toBe(byTitle(before, 'Night concert')[0].id);
    expect((night.venue as { venue: string }).venue).toBe('New Hall');
    expect(byTitle(after, 'New York jazz')[0].status).toBe('trash');
    expect(byTitle(after, 'Gone later')[0].status).toBe('trash');
    expect(after).toHaveLength(before.length);
  });

  it('refuses what is not iCalendar, and a file that is not there, with a clear error and nothing written', async () => {
    const html = join(dir, 'page.html');
    writeFileSync(html, '<!doctype html><html><body>Not found</body></html>');
    const before = await all();
    const notIcal = await cli('import:ical', html);
    expect(notIcal.code).toBe(1);
    expect(notIcal.stderr).toMatch(/^error: not iCalendar/);
    const missing = await cli('import:ical', join(dir, 'missing.ics'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: cannot read/);
    expect(await all()).toEqual(before);
  });
});
