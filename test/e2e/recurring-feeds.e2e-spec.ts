import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ICAL from 'ical.js';
import type { Role } from '../../src/auth/roles';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { expandFeed } from '../support/readers/icaljs';
import { postEvent, type EventBody } from '../support/events';
import { createUsersForAllRoles, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const NOW = new Date('2026-11-01T12:00:00Z');

const text = (res: { text?: string; body?: unknown }): string =>
  typeof res.text === 'string' ? res.text : Buffer.isBuffer(res.body) ? res.body.toString('utf8') : '';
describe('recurring events in iCalendar feeds', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;
  const as = (role: Role) => users[role].auth;

  async function listAll(query: Record<string, string>, auth?: string): Promise<EventBody[]> {
    const found: EventBody[] = [];
    for (let page = 1; ; page++) {
      const req = t.http.get(`${ns}/events`).query({ ...query, per_page: '50', page: String(page) });
      const res = await (auth ? req.set('Authorization', auth) : req).expect(200);
      found.push(...(res.body.events as EventBody[]));
      if (page >= Number(res.headers['x-wp-totalpages'])) return found;
    }
  }

  /** What the JSON list with `query` lists, written as {@link expandFeed} writes a feed's instances. */
  async function listedInstances(query: Record<string, string>, auth?: string): Promise<string[]> {
    return (await listAll(query, auth))
      .map((e) =>
        e.all_day
          ? `${String(e.start_date).slice(0, 10)}|${e.title}`
          : `${e.utc_start_date}|${String(e.utc_end_date)}|${e.title}`,
      )
      .sort();
  }

  async function feedInstances(query: Record<string, string>, auth?: string): Promise<string[]> {
    const req = t.http.get(`${ns}/events.ics`).query(query).buffer(true);
    const res = await (auth ? req.set('Authorization', auth) : req).expect(200);
    if (process.env.DUMP_FEED) console.log(text(res));
    return expandFeed(text(res));
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { SITE_TIMEZONE: 'Europe/Berlin' }, now: NOW });
    users = await createUsersForAllRoles(t);
    const editor = as('editor');
    // Weekly in Berlin across both DST changes, a holiday gap, one moved and one renamed occurrence, one deleted.
    const yoga = await postEvent(t, editor, {
      title: 'Yoga',
      start_date: '2026-12-01 19:00:00',
      end_date: '2026-12-01 20:30:00',
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20271031T000000Z', 'EXDATE:20261222T190000,20261229T190000'],
    });
    const yogaAll = (await listAll({ start_date: '2026-01-01', end_date: '2028-12-31' })).filter(
      (e) => e.series_id === yoga.id,
    );
    await t.http
      .put(`${ns}/events/${yogaAll[4].id}`)
      .set('Authorization', editor)
      .send({
        start_date: `${yogaAll[4].start_date.slice(0, 10)} 18:00:00`,
        end_date: `${yogaAll[4].start_date.slice(0, 10)} 19:00:00`,
      })
      .expect(200);
    await t.http
      .put(`${ns}/events/${yogaAll[6].id}`)
      .set('Authorization', editor)
      .send({ title: 'Yoga outdoors' })
      .expect(200);
    await t.http.delete(`${ns}/events/${yogaAll[8].id}`).set('Authorization', editor).expect(200);
    // The last Friday of each month in New York, open-ended (to the horizon).
    await postEvent(t, editor, {
      title: 'Jazz night',
      timezone: 'America/New_York',
      start_date: '2026-11-27 20:00:00',
      end_date: '2026-11-27 23:00:00',
      recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=-1FR'],
    });
    // All-day, every other Saturday, with an extra day in another zone's time.
    await postEvent(t, editor, {
      title: 'Market',
      all_day: true,
      start_date: '2026-12-05',
      end_date: '2026-12-05',
      recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=12', 'RDATE;VALUE=DATE:20261224'],
    });
    // Sydney, in the repeated hour of the autumn change, daily for a week.
    await postEvent(t, editor, {
      title: 'Night shift',
      timezone: 'Australia/Sydney',
      start_date: '2027-04-01 02:30:00',
      end_date: '2027-04-01 03:30:00',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=7'],
    });
    // Berlin, Friday to Sunday across the spring change: 48 hours on the clock face, 47 that weekend.
    await postEvent(t, editor, {
      title: 'Festival',
      timezone: 'Europe/Berlin',
      start_date: '2027-03-12 18:00:00',
      end_date: '2027-03-14 18:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
    });
    // The same, starting on the weekend of the change: its own length is the 47 hours, the others' 48.
    await postEvent(t, editor, {
      title: 'Festival from the change',
      timezone: 'Europe/Berlin',
      start_date: '2027-03-26 18:00:00',
      end_date: '2027-03-28 18:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    // Berlin, in the hour the spring change skips, daily across it.
    await postEvent(t, editor, {
      title: 'Gap shift',
      timezone: 'Europe/Berlin',
      start_date: '2027-03-26 02:30:00',
      end_date: '2027-03-26 03:30:00',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=4'],
    });
    // A fixed offset, which no VTIMEZONE describes.
    await postEvent(t, editor, {
      title: 'Offset call',
      timezone: 'UTC+2',
      start_date: '2026-12-02 01:00:00',
      end_date: '2026-12-02 02:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=5'],
    });
    // A draft series, which the public neither lists nor gets in its feed.
    await postEvent(t, editor, {
      title: 'Draft series',
      status: 'draft',
      start_date: '2026-12-03 10:00:00',
      end_date: '2026-12-03 11:00:00',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    await postEvent(t, editor, { title: 'Single', start_date: '2026-12-10 10:00:00', end_date: '2026-12-10 11:00:00' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('expands, with ical.js, to exactly the instants and titles of the JSON list (whole range)', async () => {
    const query = { start_date: '2026-01-01', end_date: '2028-12-31' };
    const listed = await listedInstances(query);
    expect(listed.length).toBeGreaterThan(60);
    expect(await feedInstances(query)).toEqual(listed);
  });

  it('a window that cuts series in the middle expands to the window, not to the whole series', async () => {
    const query = { start_date: '2027-02-15', end_date: '2027-04-03' };
    const listed = await listedInstances(query);
    expect(listed.some((l) => l.endsWith('|Yoga'))).toBe(true);
    expect(await feedInstances(query)).toEqual(listed);
  });

  it('a signed-in editor gets the draft series too, still equal to their list', async () => {
    const query = { start_date: '2026-01-01', end_date: '2028-12-31', status: 'publish,draft' };
    const listed = await listedInstances(query, as('editor'));
    expect(listed.filter((l) => l.endsWith('|Draft series'))).toHaveLength(3);
    expect(await feedInstances(query, as('editor'))).toEqual(listed);
  });

  it('writes one VEVENT per series with RRULE, and an exception with RECURRENCE-ID for the moved occurrence', async () => {
    const res = await t.http
      .get(`${ns}/events.ics`)
      .query({ start_date: '2026-01-01', end_date: '2028-12-31' })
      .buffer(true)
      .expect(200);
    const feed = text(res).replace(/\r\n /g, '');
    const calendar = new ICAL.Component(ICAL.parse(feed));
    const vevents = calendar.getAllSubcomponents('vevent');
    const yoga = vevents.filter((v) => String(v.getFirstPropertyValue('summary')).startsWith('Yoga'));
    const masters = yoga.filter((v) => !v.hasProperty('recurrence-id'));
    expect(masters).toHaveLength(1);
    expect(String(masters[0].getFirstPropertyValue('rrule'))).toContain('FREQ=WEEKLY');
    expect(yoga.filter((v) => v.hasProperty('recurrence-id'))).toHaveLength(2);
    expect(feed).not.toMatch(/^EXDATE:\d/m);
    // The occurrence in the skipped hour: its RECURRENCE-ID names the rule time (02:30), its instance the
    // instant it starts at (03:30 CEST, 01:30Z) and keeps the hour's length.
    const gap = vevents.find(
      (v) => v.getFirstPropertyValue('summary') === 'Gap shift' && v.hasProperty('recurrence-id'),
    );
    expect(gap?.getFirstProperty('recurrence-id')?.toICALString()).toBe(
      'RECURRENCE-ID;TZID=Europe/Berlin:20270328T023000',
    );
    expect(String(gap?.getFirstPropertyValue('dtstart'))).toBe('2027-03-28T01:30:00Z');
    expect(String(gap?.getFirstPropertyValue('dtend'))).toBe('2027-03-28T02:30:00Z');
  });
});
