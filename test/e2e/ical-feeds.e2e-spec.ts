import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import ICAL from 'ical.js';
import type { Role } from '../../src/auth/roles';
import { CapturedStream } from '../support/captured-stream';
import { createTestApp, SteppingClock, type TestApp } from '../support/create-test-app';
import { ChangeHeads } from '../../src/core/changes/change-heads';
import { EventFeedService, FEED_CHUNK } from '../../src/modules/events/ical/event-feed.service';
import { postEvent, type EventBody } from '../support/events';
import { insertEvent } from '../support/posts';
import { createUsersForAllRoles, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const YEAR = 'start_date=2031-01-01&end_date=2031-12-31';

/** A feed parsed by ical.js (an independent parser), with its time zones registered so TZIDs resolve. */
function parseFeed(text: string): { calendar: ICAL.Component; events: Map<string, ICAL.Event> } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  ICAL.TimezoneService.reset();
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const events = new Map<string, ICAL.Event>();
  for (const component of calendar.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(component);
    events.set(event.uid, event);
  }
  return { calendar, events };
}

const utcOf = (time: ICAL.Time): string => time.toJSDate().toISOString().replace('T', ' ').slice(0, 19);

const text = (res: { text?: string; body?: unknown }): string =>
  typeof res.text === 'string' ? res.text : Buffer.isBuffer(res.body) ? res.body.toString('utf8') : '';

describe('iCalendar feeds', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;
  let concert: EventBody;
  let fair: EventBody;
  let offset: EventBody;
  let secret: EventBody;
  let draft: EventBody;
  let hidden: EventBody;
  let soon: EventBody;
  // Modification times and Last-Modified have whole seconds: tests move the service's time on by one.
  const clock = new SteppingClock();

  beforeAll(async () => {
    // A fixed public URL: global ids (the UIDs) name its host, not the test server's changing port.
    t = await createTestApp({
      env: { SITE_TIMEZONE: 'Europe/Berlin', GEO_ENABLED: 'true', PUBLIC_URL: 'https://cal.example.org' },
      clock,
    });
    users = await createUsersForAllRoles(t);
    const editor = users.editor.auth;
    // Starts before and ends after Berlin's spring-forward (2031-03-30 02:00 CET → 03:00 CEST).
    concert = await postEvent(t, editor, {
      title: 'Night of brass',
      description: '<p>A <strong>concert</strong> on the pier.</p><ul><li>brass</li><li>choir</li></ul>',
      start_date: '2031-03-29 22:00:00',
      end_date: '2031-03-30 04:00:00',
      venue: {
        venue: 'Pier Hall',
        address: 'Kai 1',
        city: 'Hamburg',
        zip: '20457',
        country: 'Germany',
        geo_lat: 53.5461,
        geo_lng: 9.9661,
      },
      organizer: [{ organizer: 'Brass "Society"', email: 'brass@example.org' }, { organizer: 'No Mail Club' }],
      categories: ['Music', 'Jazz'],
      tags: ['outdoor'],
      featured: true,
    });
    fair = await postEvent(t, editor, {
      title: 'Spring fair',
      all_day: true,
      start_date: '2031-03-10',
      end_date: '2031-03-12',
      timezone: 'America/New_York',
      categories: ['Markets'],
    });
    offset = await postEvent(t, editor, {
      title: 'Offset talk',
      start_date: '2031-05-02 10:00:00',
      end_date: '2031-05-02 11:00:00',
      timezone: 'UTC+2',
      tags: ['outdoor'],
    });
    secret = await postEvent(t, editor, {
      title: 'Members evening',
      description: '<p>The zanzibarite recipe</p>',
      password: 'open sesame',
      start_date: '2031-06-01 19:00:00',
      end_date: '2031-06-01 21:00:00',
      venue: { venue: 'Hidden Cellar' },
      categories: ['Music'],
    });
    draft = await postEvent(t, editor, {
      title: 'Draft plans',
      status: 'draft',
      start_date: '2031-07-01 19:00:00',
      end_date: '2031-07-01 21:00:00',
    });
    hidden = await postEvent(t, editor, {
      title: 'Private rehearsal',
      status: 'private',
      start_date: '2031-07-02 19:00:00',
      end_date: '2031-07-02 21:00:00',
    });
    // Inside the default window (yesterday to two years ahead).
    soon = await postEvent(t, editor, {
      title: 'Next month',
      start_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) + ' 18:00:00',
      end_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) + ' 20:00:00',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const feed = (query: string, auth?: string) => {
    const req = t.http.get(`${ns}/events.ics?${query}`);
    return auth ? req.set('Authorization', auth) : req;
  };

  /** Global ids of every page of the JSON list for the same query and caller, or the error it answers. */
  async function listed(query: string, auth?: string): Promise<{ status: number; code?: string; uids: string[] }> {
    const uids: string[] = [];
    for (let page = 1; ; page++) {
      const req = t.http.get(`${ns}/events?${query}&per_page=50&page=${page}`);
      const res = await (auth ? req.set('Authorization', auth) : req);
      if (res.status === 404 && page === 1) return { status: 200, uids };
      if (res.status !== 200) return { status: res.status, code: res.body.code, uids };
      uids.push(...(res.body as { events: { global_id: string }[] }).events.map((e) => e.global_id));
      if (page >= Number(res.headers['x-tec-totalpages'])) return { status: 200, uids };
    }
  }

  it('writes every field a calendar client reads, and an independent parser reads them back', async () => {
    const res = await feed(YEAR).expect(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const raw = text(res);
    expect(raw.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(raw.endsWith('END:VCALENDAR\r\n')).toBe(true);
    // RFC 5545 §3.1: lines end in CRLF and are folded at 75 octets.
    for (const line of raw.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const { calendar, events } = parseFeed(raw);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');

    const vevent = events.get(concert.global_id as string)!;
    expect(vevent.summary).toBe('Night of brass');
    expect(vevent.startDate.zone.tzid).toBe('Europe/Berlin');
    // 22:00 CET and 04:00 CEST: the VTIMEZONE carries the daylight-saving change.
    expect(utcOf(vevent.startDate)).toBe('2031-03-29 21:00:00');
    expect(utcOf(vevent.endDate)).toBe('2031-03-30 02:00:00');
    expect(utcOf(vevent.endDate)).toBe(concert.utc_end_date);
    expect(vevent.location).toBe('Pier Hall, Kai 1, Hamburg, 20457, Germany');
    const component = vevent.component;
    const geo = component.getFirstPropertyValue('geo') as unknown as number[];
    expect(geo.map(Number)).toEqual([53.5461, 9.9661]);
    const organizer = component.getFirstProperty('organizer')!;
    expect(organizer.getFirstValue()).toBe('mailto:brass@example.org');
    expect(organizer.getParameter('cn')).toBe("Brass 'Society'");
    expect(component.getFirstProperty('categories')!.getValues()).toEqual(['Jazz', 'Music']);
    expect(vevent.description).toBe('A concert on the pier.\n\n * brass\n * choir');
    expect(component.getFirstPropertyValue('url')).toBe(concert.url);
    expect(component.getFirstPropertyValue('status')).toBe('CONFIRMED');
    // When the event, or what it shows, last changed (change_heads, as the single read's Last-Modified):
    // at or after its own modified_utc.
    const changed = await t.app.get(ChangeHeads).changedUtc('event', concert.id);
    const modified = utcOf(component.getFirstPropertyValue('last-modified') as ICAL.Time);
    expect(modified).toBe(changed);
    expect(modified >= String(concert.modified_utc)).toBe(true);
    expect(utcOf(component.getFirstPropertyValue('dtstamp') as ICAL.Time)).toBe(
      utcOf(component.getFirstPropertyValue('last-modified') as ICAL.Time),
    );
    expect(vevent.sequence).toBeGreaterThan(0);

    // A multi-day all-day event: dates, the end the day after its last.
    const allDay = events.get(fair.global_id as string)!;
    expect(allDay.startDate.isDate).toBe(true);
    expect(allDay.startDate.toString()).toBe('2031-03-10');
    expect(allDay.endDate.toString()).toBe('2031-03-13');
    // A fixed offset has no VTIMEZONE: the times are written in UTC.
    const fixed = events.get(offset.global_id as string)!;
    expect(fixed.startDate.zone.tzid).toBe('UTC');
    expect(utcOf(fixed.startDate)).toBe('2031-05-02 08:00:00');

    // One VTIMEZONE per zone a timed event uses, and none other.
    const zones = calendar.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'));
    expect(zones).toEqual(['Europe/Berlin']);
  });

  it('keeps the UID of an event across edits and raises its SEQUENCE', async () => {
    const before = parseFeed(text(await feed(YEAR).expect(200))).events.get(offset.global_id as string)!;
    clock.nextSecond();
    await t.http
      .post(`${ns}/events/${offset.id}`)
      .set('Authorization', users.editor.auth)
      .send({ title: 'Offset talk, moved' })
      .expect(200);
    const after = parseFeed(text(await feed(YEAR).expect(200))).events.get(offset.global_id as string)!;
    expect(after.uid).toBe(before.uid);
    expect(after.summary).toBe('Offset talk, moved');
    expect(after.sequence).toBeGreaterThan(before.sequence);
  });

  it('raises SEQUENCE and LAST-MODIFIED when a venue or organizer shown in the event changes', async () => {
    const uid = concert.global_id as string;
    const venueId = (concert.venue as { id: number }).id;
    const organizerId = (concert.organizer as { id: number }[])[0].id;
    const edits: [string, Record<string, string>, (e: ICAL.Event) => string][] = [
      [`${ns}/venues/${venueId}`, { venue: 'Pier Hall (renamed)' }, (e) => e.location],
      [`${ns}/organizers/${organizerId}`, { email: 'brass-office@example.org' }, (e) => e.organizer],
    ];
    for (const [path, body, shown] of edits) {
      const readBoth = async () => {
        const inFeed = parseFeed(text(await feed(YEAR).expect(200))).events.get(uid)!;
        const single = parseFeed(text(await t.http.get(`${ns}/events/${concert.id}.ics`).expect(200))).events.get(uid)!;
        return [inFeed, single];
      };
      const before = await readBoth();
      clock.nextSecond();
      await t.http.post(path).set('Authorization', users.editor.auth).send(body).expect(200);
      const after = await readBoth();
      for (const [index, event] of after.entries()) {
        const old = before[index];
        expect(shown(event)).not.toBe(shown(old));
        expect(event.sequence).toBeGreaterThan(old.sequence);
        const modified = (e: ICAL.Event) => utcOf(e.component.getFirstPropertyValue('last-modified') as ICAL.Time);
        expect(modified(event) > modified(old)).toBe(true);
      }
    }
  });

  it('leaves control characters out of the feed, which ical.js then reads', async () => {
    // The API refuses control characters (api-decisions.md); rows written before that rule, or by hand, may
    // still hold them, and the feed must not carry them.
    const messy = await postEvent(t, users.editor.auth, {
      title: 'Messy',
      description: '<p>Line one</p>',
      venue: { venue: 'Messy hall' },
      categories: ['Messy category'],
      start_date: '2031-05-05 10:00:00',
      end_date: '2031-05-05 11:00:00',
    });
    const set = (sql: string, ...values: unknown[]) => t.dataSource.query(sql, values);
    await set(
      'UPDATE posts SET title = ?, content = ? WHERE id = ?',
      'Tab\there, bell\u0007, escape\u001b[0m, delete\u007f, C1\u0085 end',
      '<p>Line one\u0008</p><p>Line two\u000c</p>',
      messy.id,
    );
    await set(
      'UPDATE posts SET title = ? WHERE id = ?',
      'Hall\u0001 of \u001fcontrol',
      (messy.venue as { id: number }).id,
    );
    await set('UPDATE terms SET name = ? WHERE id = ?', 'Cat\u0002egory', (messy.categories as { id: number }[])[0].id);
    // A write through the API afterwards (of another field) is what makes the service read the rows again.
    await t.http
      .patch(`${ns}/events/${String(messy.id)}`)
      .set('Authorization', users.editor.auth)
      .send({ excerpt: 'x' })
      .expect(200);
    const raw = text(await feed(YEAR).expect(200));
    // No control character but CR and LF (line ends) and HTAB anywhere in the stream.
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(raw).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/);
    const event = parseFeed(raw).events.get(messy.global_id as string)!;
    expect(event.summary).toBe('Tab\there, bell, escape[0m, delete, C1 end');
    expect(event.location.startsWith('Hall of control')).toBe(true);
    expect(event.description).toContain('Line one');
    expect(event.component.getFirstPropertyValue('categories')).toBe('Category');
  });

  it('answers the filters of the list with the same events, in the same visibility, for each caller', async () => {
    const queries = [
      YEAR,
      `${YEAR}&categories=music`,
      `${YEAR}&tags=outdoor`,
      `${YEAR}&venue=${(concert.venue as { id: number }).id}`,
      `${YEAR}&organizer=${(concert.organizer as { id: number }[])[0].id}`,
      `${YEAR}&search=brass`,
      `${YEAR}&featured=true`,
      `${YEAR}&starts_after=2031-04-01`,
      'start_date=2031-03-01&end_date=2031-03-31',
      'starts_before=2031-04-01',
      'ends_after=2031-05-01',
      'start_date=2031-03-29 23:00:00&end_date=2031-05-02 10:30:00&strict_dates=true',
      `${YEAR}&status=draft,private`,
      `${YEAR}&geoloc=true`,
      `${YEAR}&geoloc_lat=53.55&geoloc_lng=9.97&geoloc_radius=10`,
      `post_parent=${concert.id}`,
      `include=${concert.id},${draft.id}`,
      '',
    ];
    for (const auth of [undefined, users.subscriber.auth, users.editor.auth]) {
      for (const query of queries) {
        const res = await feed(query, auth);
        const uids = res.status === 200 ? [...parseFeed(text(res)).events.keys()] : [];
        const answer = { status: res.status, code: res.status === 200 ? undefined : res.body.code, uids };
        expect({ query, answer }).toEqual({ query, answer: await listed(query, auth) });
      }
    }
    // The comparison above is only as good as what the filters find: some find something.
    const uidsOf = async (query: string) => [...parseFeed(text(await feed(query).expect(200))).events.keys()];
    expect(await uidsOf(`${YEAR}&geoloc=true`)).toEqual([concert.global_id]);
    expect(await uidsOf(`${YEAR}&tags=outdoor`)).toEqual([concert.global_id, offset.global_id]);
    expect(await uidsOf('starts_before=2031-04-01')).toEqual(
      expect.arrayContaining([soon.global_id, fair.global_id, concert.global_id]),
    );
    // The default window: what is coming, not 2031.
    const upcoming = [...parseFeed(text(await feed('').expect(200))).events.keys()];
    expect(upcoming).toEqual([soon.global_id]);
  });

  it('never shows the public drafts, private events or the content of password-protected ones', async () => {
    const raw = text(await feed(`${YEAR}&status=publish`).expect(200));
    expect(raw).not.toContain('Draft plans');
    expect(raw).not.toContain('Private rehearsal');
    expect(raw).not.toContain('zanzibarite');
    expect(raw).not.toContain('Hidden Cellar');
    const protectedEvent = parseFeed(raw).events.get(secret.global_id as string)!;
    expect(protectedEvent.summary).toBe('Members evening');
    expect(protectedEvent.description).toBeNull();
    expect(protectedEvent.location).toBeNull();
    expect(protectedEvent.component.getFirstProperty('categories')).toBeNull();
    // Those who may edit them see them whole; drafts are tentative, private events marked private.
    const editorView = parseFeed(text(await feed(`${YEAR}&status=draft,private,publish`, users.editor.auth)));
    expect(editorView.events.get(secret.global_id as string)!.description).toBe('The zanzibarite recipe');
    const draftEntry = editorView.events.get(draft.global_id as string)!.component;
    expect(draftEntry.getFirstPropertyValue('status')).toBe('TENTATIVE');
    const privateEntry = editorView.events.get(hidden.global_id as string)!.component;
    expect(privateEntry.getFirstPropertyValue('class')).toBe('PRIVATE');
    expect(privateEntry.getFirstPropertyValue('status')).toBe('CONFIRMED');
  });

  it('answers 304 to a client whose copy is current, and 200 after any write that changes the feed', async () => {
    const first = await feed(YEAR).expect(200);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/"ics-/);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    // HEAD: the same validators, no body (a client checking before it downloads).
    const head = await t.http.head(`${ns}/events.ics?${YEAR}`).expect(200);
    expect([head.headers.etag, head.headers['content-type'], text(head)]).toEqual([
      etag,
      'text/calendar; charset=utf-8',
      '',
    ]);
    const unchanged = await feed(YEAR).set('If-None-Match', etag).expect(304);
    expect(text(unchanged)).toBe('');
    expect(unchanged.headers.etag).toBe(etag);
    // Another feed (other filters, another caller) has its own validator.
    expect((await feed(`${YEAR}&featured=true`)).headers.etag).not.toBe(etag);
    const editorCopy = await feed(YEAR, users.editor.auth).expect(200);
    expect(editorCopy.headers.etag).not.toBe(etag);
    expect(editorCopy.headers['cache-control']).toBe('private, no-cache');

    // A venue rename changes what the feed embeds, not any event row.
    await t.http
      .post(`${ns}/venues/${(concert.venue as { id: number }).id}`)
      .set('Authorization', users.editor.auth)
      .send({ venue: 'Pier Hall East' })
      .expect(200);
    const renamed = await feed(YEAR).set('If-None-Match', etag).expect(200);
    expect(parseFeed(text(renamed)).events.get(concert.global_id as string)!.location).toMatch(/^Pier Hall East, /);
    await feed(YEAR).set('If-None-Match', renamed.headers.etag).expect(304);
  });

  it('keeps a feed’s ETag through writes that change nothing in it, and changes it when what it shows changes', async () => {
    const url = `${ns}/events.ics?${YEAR}`;
    const etagOf = async (auth?: string) => {
      const req = t.http.get(url);
      if (auth) req.set('Authorization', auth);
      return (await req.expect(200)).headers.etag;
    };
    const anonymous = await etagOf();
    const editorBefore = await etagOf(users.editor.auth);
    clock.nextSecond();
    // A draft in the feed's window (anonymous callers do not see it) and an event of another year.
    await postEvent(t, users.editor.auth, {
      title: 'Unannounced',
      status: 'draft',
      start_date: '2031-08-01 10:00',
      end_date: '2031-08-01 11:00',
    });
    await postEvent(t, users.editor.auth, {
      title: 'Next year',
      start_date: '2032-08-01 10:00',
      end_date: '2032-08-01 11:00',
    });
    expect(await etagOf()).toBe(anonymous);
    await t.http.get(url).set('If-None-Match', anonymous).expect(304);
    // The editor sees the draft: their feed changed.
    expect(await etagOf(users.editor.auth)).not.toBe(editorBefore);
    // A venue shown in the feed is renamed: every caller's feed changed.
    clock.nextSecond();
    await t.http
      .post(`${ns}/venues/${(concert.venue as { id: number }).id}`)
      .set('Authorization', users.editor.auth)
      .send({ venue: 'Pier Hall, north gate' })
      .expect(200);
    const renamed = await t.http.get(url).set('If-None-Match', anonymous).expect(200);
    expect(renamed.headers.etag).not.toBe(anonymous);
    expect(text(renamed)).toContain('north gate');
  });

  it('answers a poll from a known fingerprint exactly as an instance that reads the events, for each caller', async () => {
    // A second instance on the same database with no fingerprint known: it reads the events for every answer.
    const cold = await createTestApp({
      database: t.database,
      env: { SITE_TIMEZONE: 'Europe/Berlin', GEO_ENABLED: 'true', PUBLIC_URL: 'https://cal.example.org' },
      clock,
    });
    try {
      const url = `${ns}/events.ics?${YEAR}`;
      const read = (app: TestApp, auth: string | undefined, etag?: string) => {
        const req = app.http.get(url);
        if (auth) req.set('Authorization', auth);
        if (etag) req.set('If-None-Match', etag);
        return req;
      };
      const compare = async () => {
        for (const auth of [undefined, users.editor.auth, users.author.auth]) {
          const warm = await read(t, auth).expect(200);
          // The warm instance's second answer comes from its known fingerprint.
          await read(t, auth, warm.headers.etag).expect(304);
          const exact = await read(cold, auth).expect(200);
          expect([auth ?? 'anonymous', warm.headers.etag, text(warm)]).toEqual([
            auth ?? 'anonymous',
            exact.headers.etag,
            text(exact),
          ]);
          await read(cold, auth, warm.headers.etag).expect(304);
        }
      };
      await compare();
      clock.nextSecond();
      await t.http
        .post(`${ns}/events/${offset.id}`)
        .set('Authorization', users.editor.auth)
        .send({ title: 'Offset talk, moved again' })
        .expect(200);
      await compare();
    } finally {
      await cold.close();
    }
  });

  it('compresses feeds for clients that accept gzip, and only feeds', async () => {
    const url = `${ns}/events.ics?${YEAR}`;
    const gzipped = await t.http.get(url).set('Accept-Encoding', 'gzip').expect(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    const plain = await t.http.get(url).set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    // Supertest unzips: the same calendar either way.
    expect(text(gzipped)).toBe(text(plain));
    const json = await t.http.get(`${ns}/events?${YEAR}`).set('Accept-Encoding', 'gzip').expect(200);
    expect(json.headers['content-encoding']).toBeUndefined();
    // Every way to a feed: the list asked for iCalendar, and one event's feed (twice: the second may be a hit).
    const negotiated = await t.http
      .get(`${ns}/events?${YEAR}`)
      .set('Accept', 'text/calendar')
      .set('Accept-Encoding', 'gzip')
      .expect(200);
    expect(negotiated.headers['content-encoding']).toBe('gzip');
    expect(text(negotiated)).toBe(text(plain));
    const id = (json.body as { events: { id: number }[] }).events[0].id;
    for (let read = 0; read < 2; read++) {
      const single = await t.http.get(`${ns}/events/${id}.ics`).set('Accept-Encoding', 'gzip').expect(200);
      expect(single.headers['content-encoding']).toBe('gzip');
      expect(text(single)).toContain('BEGIN:VEVENT');
    }
  });

  it('honours If-Modified-Since, and a deletion makes the feed modified', async () => {
    const gone = await postEvent(t, users.editor.auth, {
      title: 'Soon gone',
      start_date: '2031-09-01 10:00:00',
      end_date: '2031-09-01 11:00:00',
    });
    clock.nextSecond();
    const res = await feed(YEAR).expect(200);
    const lastModified = res.headers['last-modified'];
    expect(new Date(lastModified).getTime()).toBeGreaterThan(clock.now().getTime() - 60_000);
    await feed(YEAR).set('If-Modified-Since', lastModified).expect(304);
    clock.nextSecond();
    await t.http.delete(`${ns}/events/${gone.id}`).set('Authorization', users.editor.auth).expect(200);
    const after = await feed(YEAR).set('If-Modified-Since', lastModified).expect(200);
    expect(parseFeed(text(after)).events.has(gone.global_id as string)).toBe(false);
  });

  it('answers GET /events with Accept: text/calendar as the feed, and JSON otherwise', async () => {
    const negotiated = await t.http.get(`${ns}/events?${YEAR}`).set('Accept', 'text/calendar').expect(200);
    expect(negotiated.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(negotiated.headers.vary).toMatch(/Accept/);
    const direct = await feed(YEAR).expect(200);
    expect([...parseFeed(text(negotiated)).events.keys()]).toEqual([...parseFeed(text(direct)).events.keys()]);
    for (const accept of ['application/json', '*/*', 'text/calendar;q=0.5, application/json']) {
      const res = await t.http.get(`${ns}/events?${YEAR}`).set('Accept', accept).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
    // Bad filters are the list's 400, whatever the format asked for.
    const bad = await feed('start_date=yesterday-ish').expect(400);
    expect(bad.body.code).toBe('rest_invalid_param');
  });

  it('serves one event as iCalendar with the rules of the single read', async () => {
    const res = await t.http.get(`${ns}/events/${concert.id}.ics`).expect(200);
    const { events } = parseFeed(text(res));
    expect([...events.keys()]).toEqual([concert.global_id]);
    expect(res.headers['content-disposition']).toBe(`inline; filename="${concert.slug}.ics"`);
    await t.http.get(`${ns}/events/${concert.id}.ics`).set('If-None-Match', res.headers.etag).expect(304);

    const locked = await t.http.get(`${ns}/events/${secret.id}.ics`).expect(403);
    expect(locked.body.code).toBe('event-password-protected');
    const opened = await t.http.get(`${ns}/events/${secret.id}.ics?password=open%20sesame`).expect(200);
    expect(parseFeed(text(opened)).events.get(secret.global_id as string)!.description).toBe('The zanzibarite recipe');

    for (const id of [draft.id, hidden.id, 999999]) {
      const json = await t.http.get(`${ns}/events/${id}`);
      const ics = await t.http.get(`${ns}/events/${id}.ics`);
      expect({ id, status: ics.status, code: ics.body.code }).toEqual({
        id,
        status: json.status,
        code: json.body.code,
      });
    }
    expect((await t.http.get(`${ns}/events/abc.ics`).expect(404)).body.code).toBe('rest_no_route');
  });
});

describe('iCalendar feeds: time zones whose rules changed', () => {
  let t: TestApp;
  let editor: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { SITE_TIMEZONE: 'UTC', PUBLIC_URL: 'https://cal.example.org' } });
    editor = (await createUsersForAllRoles(t)).editor;
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives every instant of São Paulo, Cairo and Berlin events, read with only the feed’s VTIMEZONEs, as the JSON API does', async () => {
    // Egypt brought summer time back in 2023; Brazil dropped it in 2019; Berlin changes twice a year.
    const local: [string, string, string][] = [
      ['America/Sao_Paulo', '2018-12-01 20:00:00', '2018-12-01 22:30:00'],
      ['America/Sao_Paulo', '2024-12-01 20:00:00', '2024-12-01 22:30:00'],
      ['Africa/Cairo', '2022-07-10 18:00:00', '2022-07-10 20:00:00'],
      ['Africa/Cairo', '2024-07-10 18:00:00', '2024-07-10 20:00:00'],
      ['Africa/Cairo', '2025-04-24 23:30:00', '2025-04-25 01:30:00'],
      ['Europe/Berlin', '2024-03-30 23:00:00', '2024-03-31 04:00:00'],
      ['Europe/Berlin', '2024-10-26 23:00:00', '2024-10-27 04:00:00'],
    ];
    const created: EventBody[] = [];
    for (const [timezone, start, end] of local) {
      created.push(
        await postEvent(t, editor.auth, { title: `${timezone} ${start}`, timezone, start_date: start, end_date: end }),
      );
    }
    const raw = text(
      await t.http.get(`${ns}/events.ics?start_date=2018-01-01&end_date=2025-12-31&per_page=50`).expect(200),
    );
    const { calendar, events } = parseFeed(raw);
    expect(
      calendar
        .getAllSubcomponents('vtimezone')
        .map((z) => z.getFirstPropertyValue('tzid'))
        .sort(),
    ).toEqual(['Africa/Cairo', 'America/Sao_Paulo', 'Europe/Berlin']);
    for (const event of created) {
      const json = (await t.http.get(`${ns}/events/${event.id}`).expect(200)).body as EventBody;
      for (const source of [
        events,
        parseFeed(text(await t.http.get(`${ns}/events/${event.id}.ics`).expect(200))).events,
      ]) {
        const read = source.get(json.global_id as string)!;
        expect(read.startDate.zone?.tzid).toBe(json.timezone);
        expect([json.title, utcOf(read.startDate), utcOf(read.endDate)]).toEqual([
          json.title,
          json.utc_start_date,
          json.utc_end_date,
        ]);
      }
    }
  });
});

describe('iCalendar feeds: writes while a feed streams', () => {
  let t: TestApp;
  let editor: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    editor = (await createUsersForAllRoles(t)).editor;
  });
  afterAll(async () => {
    await t.close();
  });

  it('never writes an event that was made private or draft after the feed began', async () => {
    // More than one chunk, the events that change in the last one.
    for (let i = 0; i < FEED_CHUNK + 5; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      await insertEvent(t, { startUtc: `2032-01-${day} 10:00:00` });
    }
    const late = { start_date: '2032-12-30 10:00:00', end_date: '2032-12-30 11:00:00' };
    const goesPrivate = await postEvent(t, editor.auth, { ...late, title: 'Open rehearsal' });
    const goesDraft = await postEvent(t, editor.auth, { ...late, title: 'Open workshop' });
    const heads = t.app.get(ChangeHeads);
    const original = heads.changedUtcOf.bind(heads);
    // Once the first chunk's rows are read, as a client is still downloading it, an editor hides two events.
    const spy = jest.spyOn(heads, 'changedUtcOf').mockImplementationOnce(async (resource, ids) => {
      await t.http
        .post(`${ns}/events/${goesPrivate.id}`)
        .set('Authorization', editor.auth)
        .send({ status: 'private', title: 'Board only: layoffs' })
        .expect(200);
      await t.http
        .post(`${ns}/events/${goesDraft.id}`)
        .set('Authorization', editor.auth)
        .send({ status: 'draft', title: 'Draft: not announced' })
        .expect(200);
      return original(resource, ids);
    });
    try {
      const raw = text(await t.http.get(`${ns}/events.ics?start_date=2032-01-01&end_date=2032-12-31`).expect(200));
      expect(spy).toHaveBeenCalled();
      const events = parseFeed(raw).events;
      expect(events.size).toBe(FEED_CHUNK + 5);
      expect(raw).not.toMatch(/layoffs|not announced|Open rehearsal|Open workshop/);
      expect(events.has(goesPrivate.global_id as string)).toBe(false);
      expect(events.has(goesDraft.global_id as string)).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('iCalendar feeds: a bound on feeds written at once', () => {
  let t: TestApp;
  const logs = new CapturedStream();

  beforeAll(async () => {
    // A fixed public URL: supertest's port changes per request, and validators are per origin.
    t = await createTestApp({
      env: { ICAL_CONCURRENT_FEEDS: '1', PUBLIC_URL: 'https://cal.example.org', LOG_LEVEL: 'info' },
      logDestination: logs,
    });
    const editor = (await createUsersForAllRoles(t)).editor;
    for (const day of ['10', '11', '12']) {
      await postEvent(t, editor.auth, { start_date: `2031-02-${day} 10:00:00`, end_date: `2031-02-${day} 11:00:00` });
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('queues one feed behind the one being written, refuses the next with 503, and still answers polls and lists', async () => {
    const url = `${ns}/events.ics?${YEAR}`;
    const etag = (await t.http.get(url).expect(200)).headers.etag;
    const heads = t.app.get(ChangeHeads);
    const original = heads.changedUtcOf.bind(heads);
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // The first feed holds its turn in the middle of its stream until the test lets it go on.
    const spy = jest.spyOn(heads, 'changedUtcOf').mockImplementationOnce(async (resource, ids) => {
      entered();
      await gate;
      return original(resource, ids);
    });
    try {
      const first = t.http.get(url).then((res) => res);
      await inside;
      const turns = t.app.get(EventFeedService).turns;
      const take = turns.take.bind(turns);
      let queued!: () => void;
      const waiting = new Promise<void>((resolve) => (queued = resolve));
      // The second feed asks for a turn: once it has, it waits in the queue (`take` counts it synchronously).
      const takeSpy = jest.spyOn(turns, 'take').mockImplementationOnce(() => {
        const turn = take();
        queued();
        return turn;
      });
      const second = t.http.get(`${url}&second=1`).then((res) => res);
      await waiting;
      takeSpy.mockRestore();
      expect(turns.queued).toBe(1);
      const refused = await t.http.get(`${url}&third=1`).expect(503);
      expect(refused.body.code).toBe('rest_feeds_busy');
      // A refusal by design, not a failure: nothing at error level for it.
      const logged = logs.lines().map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(logged.filter((line) => line.level >= 50)).toEqual([]);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // A poll of an unchanged feed and a list need no turn.
      await t.http.get(url).set('If-None-Match', etag).expect(304);
      await t.http.get(`${ns}/events?${YEAR}`).expect(200);
      open();
      for (const res of [await first, await second]) {
        expect(res.status).toBe(200);
        expect(parseFeed(text(res)).events.size).toBe(3);
      }
      // Every turn came back: the next feed is written at once.
      expect(turns.queued).toBe(0);
      await t.http.get(url).expect(200);
    } finally {
      open();
      spy.mockRestore();
    }
  });
});

describe('iCalendar feeds: the size limit', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;

  beforeAll(async () => {
    t = await createTestApp({ env: { ICAL_MAX_EVENTS: '2' } });
    users = await createUsersForAllRoles(t);
    for (const day of ['10', '11', '12']) {
      await postEvent(t, users.editor.auth, {
        start_date: `2031-02-${day} 10:00:00`,
        end_date: `2031-02-${day} 11:00:00`,
      });
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a feed above ICAL_MAX_EVENTS with a clear 400, and serves a narrower one', async () => {
    const res = await t.http.get(`${ns}/events.ics?${YEAR}`).expect(400);
    expect(res.body.code).toBe('rest_feed_too_large');
    expect(res.body.message).toMatch(/more than 2 events/);
    const narrow = await t.http.get(`${ns}/events.ics?start_date=2031-02-11&end_date=2031-02-12`).expect(200);
    expect(parseFeed(text(narrow)).events.size).toBe(2);
  });
});
