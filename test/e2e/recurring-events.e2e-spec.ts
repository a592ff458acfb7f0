import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Role } from '../../src/auth/roles';
import { SeriesHorizon } from '../../src/modules/events/recurrence/series-horizon';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent, type EventBody } from '../support/events';
import { createUsersForAllRoles, type TestUser } from '../support/users';

const base = '/cal/events/v1/events';
const NOW = new Date('2026-11-01T12:00:00Z');

/** Recurring events (behaviour.md §11): series as real events, scopes of writes and deletes, the horizon. */
describe('recurring events', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;
  const as = (role: Role) => users[role].auth;

  beforeAll(async () => {
    t = await createTestApp({ env: { SITE_TIMEZONE: 'Europe/Berlin' }, now: NOW });
    users = await createUsersForAllRoles(t);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Every occurrence of a series as the caller's list shows it (`auth` empty: anonymous), in start order. */
  async function occurrencesOf(seriesId: number, auth = as('administrator')): Promise<EventBody[]> {
    const found: EventBody[] = [];
    for (let page = 1; ; page++) {
      const query = { start_date: '2000-01-01', end_date: '2100-01-01', per_page: 100, page };
      const req = t.http.get(base).query(auth ? { ...query, status: 'publish,draft,pending,private' } : query);
      const res = await (auth ? req.set('Authorization', auth) : req);
      if (res.status !== 200) throw new Error(`the list answered ${res.status}: ${JSON.stringify(res.body)}`);
      found.push(...(res.body.events as EventBody[]).filter((e) => e.series_id === seriesId));
      if (page >= Number(res.headers['x-wp-totalpages'])) return found;
    }
  }

  async function weekly(lines: string[], fields: Record<string, unknown> = {}, role: Role = 'editor') {
    return postEvent(t, as(role), {
      title: 'Yoga class',
      start_date: '2026-12-01 19:00:00',
      end_date: '2026-12-01 20:30:00',
      recurrence: lines,
      ...fields,
    });
  }

  it('creates a series: every occurrence is an event with its own id, slug and dates, at 19:00 local across DST', async () => {
    const first = await weekly(['RRULE:FREQ=WEEKLY;COUNT=20']);
    expect(first.series_id).toBe(first.id);
    expect(first.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=20']);
    const all = await occurrencesOf(first.id);
    expect(all).toHaveLength(20);
    expect(new Set(all.map((e) => e.id)).size).toBe(20);
    expect(new Set(all.map((e) => e.slug)).size).toBe(20);
    expect(all.every((e) => e.start_date.endsWith(' 19:00:00') && String(e.end_date).endsWith(' 20:30:00'))).toBe(true);
    // 2026-12-01 is winter time (UTC+1); 2027-04-06 is summer time (UTC+2): the same 19:00 local.
    expect(all[0].utc_start_date).toBe('2026-12-01 18:00:00');
    const april = all.find((e) => e.start_date.startsWith('2027-04-06'));
    expect(april?.utc_start_date).toBe('2027-04-06 17:00:00');
    expect(all[1].slug).toBe(`${first.slug}-2026-12-08`);
    const one = await t.http.get(`${base}/${all[3].id}`).expect(200);
    expect(one.body.series_id).toBe(first.id);
    expect(one.body.recurrence).toEqual(first.recurrence);
    await t.http.get(`${base}/by-slug/${all[3].slug}`).expect(200);
  });

  it('gives an occurrence whose slug is taken the next free one, and a series written again slugs of its own', async () => {
    const fields = { title: 'Slug twin', start_date: '2027-02-01 10:00:00', end_date: '2027-02-01 11:00:00' };
    // Single events already hold the slug the second occurrence would take, and its first suffix.
    for (const title of ['Slug twin 2027 02 02', 'Slug twin 2027 02 02 2'])
      await postEvent(t, as('editor'), { ...fields, title });
    const slugsOf = async (recurrence: string[]) =>
      (await occurrencesOf((await postEvent(t, as('editor'), { ...fields, recurrence })).id)).map((e) => e.slug);
    const daily = ['RRULE:FREQ=DAILY;COUNT=3'];
    expect(await slugsOf(daily)).toEqual(['slug-twin', 'slug-twin-2027-02-02-3', 'slug-twin-2027-02-03']);
    expect(await slugsOf(daily)).toEqual(['slug-twin-2', 'slug-twin-2-2027-02-02', 'slug-twin-2-2027-02-03']);
  });

  it('refuses lines that are no series, naming recurrence, and writes nothing', async () => {
    const before = (await t.http.get(base).query({ per_page: 1 }).expect(200)).headers['x-wp-total'];
    for (const recurrence of [
      ['RRULE:FREQ=SOMETIMES'],
      ['EXRULE:FREQ=DAILY'],
      ['RRULE:FREQ=DAILY;COUNT=5000'],
      ['RRULE:FREQ=HOURLY;COUNT=3'],
      'RRULE:FREQ=DAILY',
      [42],
      [{ nested: { deeper: ['RRULE:FREQ=DAILY'] } }],
      Array.from({ length: 101 }, () => 'RDATE:20270101T100000'),
    ]) {
      const res = await t.http
        .post(base)
        .set('Authorization', as('editor'))
        .send({ title: 'Bad', start_date: '2026-12-01 10:00', end_date: '2026-12-01 11:00', recurrence });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toContain('recurrence');
    }
    expect((await t.http.get(base).query({ per_page: 1 }).expect(200)).headers['x-wp-total']).toBe(before);
  });

  it('refuses malformed and impossible dates and rules that almost never match: 400 naming the line and the value', async () => {
    const before = (await t.http.get(base).query({ per_page: 1 }).expect(200)).headers['x-wp-total'];
    const series = await weekly(['RRULE:FREQ=WEEKLY;COUNT=3'], { title: 'Budgeted' });
    const cases: [string[], RegExp][] = [
      [['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE:2027'], /line 2: 2027 is not a date/],
      [['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE:20270306T10000'], /line 2: 20270306T10000 is not a date/],
      [['RDATE:20270306T1000'], /line 1: 20270306T1000 is not a date/],
      [['RDATE:20271340T100000'], /line 1: 20271340T100000 is not a date that exists/],
      [['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE;VALUE=DATE:20270230'], /line 2: 20270230 is not a date that exists/],
      [['RRULE:FREQ=DAILY;UNTIL=20270229'], /UNTIL=20270229: 20270229 is not a date that exists/],
      [['RRULE:FREQ=MONTHLY;BYMONTHDAY=40'], /BYMONTHDAY=40: 40 is outside/],
      [['RRULE:FREQ=DAILY;BYSETPOS=5;COUNT=3'], /matches too rarely: .*BYSETPOS=5/],
      [['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'], /matches too rarely/],
    ];
    for (const [recurrence, message] of cases) {
      const created = await t.http
        .post(base)
        .set('Authorization', as('contributor'))
        .send({ title: 'Bad', start_date: '2026-12-01 10:00', end_date: '2026-12-01 11:00', recurrence });
      const updated = await t.http
        .put(`${base}/${series.id}?scope=all`)
        .set('Authorization', as('editor'))
        .send({ recurrence });
      for (const res of [created, updated]) {
        expect([recurrence, res.status, res.body.code]).toEqual([recurrence, 400, 'rest_invalid_param']);
        expect(JSON.stringify(res.body.data.params.recurrence)).toMatch(message);
      }
    }
    expect(await occurrencesOf(series.id)).toHaveLength(3);
    const after = (await t.http.get(base).query({ per_page: 1 }).expect(200)).headers['x-wp-total'];
    expect(Number(after)).toBe(Number(before) + 3);
  });

  it('null or [] on create makes a single event', async () => {
    for (const recurrence of [null, []]) {
      const e = await postEvent(t, as('editor'), { recurrence });
      expect(e.series_id).toBeNull();
      expect(e.recurrence).toBeNull();
    }
  });

  it('scope=this edits one occurrence (an exception that keeps its id); scope=all then leaves it as it is', async () => {
    const first = await weekly(['RRULE:FREQ=WEEKLY;COUNT=6'], { title: 'Choir' });
    const all = await occurrencesOf(first.id);
    const moved = all[2];
    const res = await t.http
      .put(`${base}/${moved.id}`)
      .set('Authorization', as('editor'))
      .send({ title: 'Choir (moved)', start_date: '2026-12-16 19:00:00', end_date: '2026-12-16 20:30:00' })
      .expect(200);
    expect(res.body.id).toBe(moved.id);
    expect(res.body.series_id).toBe(first.id);
    await t.http
      .put(`${base}/${all[1].id}?scope=all`)
      .set('Authorization', as('editor'))
      .send({ title: 'Choir rehearsal', cost: '5' })
      .expect(200);
    const after = await occurrencesOf(first.id);
    expect(after.map((e) => e.id)).toEqual(all.map((e) => e.id));
    const byId = new Map(after.map((e) => [e.id, e]));
    expect(byId.get(moved.id)?.title).toBe('Choir (moved)');
    expect(byId.get(moved.id)?.start_date).toBe('2026-12-16 19:00:00');
    for (const e of after.filter((o) => o.id !== moved.id)) {
      expect(e.title).toBe('Choir rehearsal');
      expect(e.cost).toContain('5');
    }
  });

  it('scope=all moves every occurrence by the same offset on the clock face, and refuses a move off the rule', async () => {
    const first = await weekly(['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4'], { title: 'Drawing' });
    const all = await occurrencesOf(first.id);
    await t.http
      .put(`${base}/${all[1].id}?scope=all`)
      .set('Authorization', as('editor'))
      .send({ start_date: '2026-12-08 18:30:00', end_date: '2026-12-08 20:30:00' })
      .expect(200);
    const after = await occurrencesOf(first.id);
    expect(after.map((e) => [e.start_date, e.end_date])).toEqual(
      all.map((e) => [`${e.start_date.slice(0, 10)} 18:30:00`, `${e.start_date.slice(0, 10)} 20:30:00`]),
    );
    const off = await t.http
      .put(`${base}/${all[1].id}?scope=all`)
      .set('Authorization', as('editor'))
      .send({ start_date: '2026-12-09 18:30:00', end_date: '2026-12-09 20:30:00' })
      .expect(400);
    expect(Object.keys(off.body.data.params)).toEqual(['start_date']);
  });

  it('after a move with scope=all, the lines and the exceptions still name the same occurrences', async () => {
    const first = await weekly(['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE:20261215T190000'], { title: 'Moved series' });
    const all = await occurrencesOf(first.id);
    expect(all).toHaveLength(4);
    await t.http
      .put(`${base}/${all[2].id}`)
      .set('Authorization', as('editor'))
      .send({ title: 'Moved (own)' })
      .expect(200);
    const moved = await t.http
      .put(`${base}/${all[1].id}?scope=all`)
      .set('Authorization', as('editor'))
      .send({ start_date: '2026-12-08 18:30:00', end_date: '2026-12-08 20:00:00' })
      .expect(200);
    expect(moved.body.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE:20261215T183000']);
    // A client sends the lines back as it got them: nothing is added, dropped or renumbered.
    await t.http
      .put(`${base}/${first.id}`)
      .set('Authorization', as('editor'))
      .send({ recurrence: moved.body.recurrence })
      .expect(200);
    const after = await occurrencesOf(first.id);
    expect(after.map((e) => [e.id, e.title, e.start_date])).toEqual([
      [all[0].id, 'Moved series', '2026-12-01 18:30:00'],
      [all[1].id, 'Moved series', '2026-12-08 18:30:00'],
      [all[2].id, 'Moved (own)', all[2].start_date],
      [all[3].id, 'Moved series', '2026-12-29 18:30:00'],
    ]);
  });

  it('scope=following makes a new series from the occurrence; the old rule ends before it', async () => {
    const first = await weekly(['RRULE:FREQ=WEEKLY;COUNT=6'], { title: 'Chess club' });
    const all = await occurrencesOf(first.id);
    const res = await t.http
      .put(`${base}/${all[3].id}?scope=following`)
      .set('Authorization', as('editor'))
      .send({ title: 'Chess club (new room)' })
      .expect(200);
    expect(res.body.series_id).toBe(all[3].id);
    const old = await occurrencesOf(first.id);
    const rest = await occurrencesOf(all[3].id);
    expect(old.map((e) => e.id)).toEqual(all.slice(0, 3).map((e) => e.id));
    expect(rest.map((e) => e.id)).toEqual(all.slice(3).map((e) => e.id));
    expect(old.every((e) => e.title === 'Chess club')).toBe(true);
    expect(rest.every((e) => e.title === 'Chess club (new room)')).toBe(true);
    expect(old[0].recurrence).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=20261222T175959Z']);
    expect(rest[0].recurrence).toEqual([`RRULE:FREQ=WEEKLY;UNTIL=20270105T180000Z`]);
  });

  it('lists the occurrences of one series with series_id=, for every caller, with exact totals', async () => {
    const first = await weekly(['RRULE:FREQ=WEEKLY;COUNT=5'], { title: 'Series filter' });
    await weekly(['RRULE:FREQ=WEEKLY;COUNT=3'], { title: 'Another series' });
    const all = await occurrencesOf(first.id);
    for (const auth of [undefined, as('administrator')]) {
      const req = t.http.get(base).query({ start_date: '2000-01-01', end_date: '2100-01-01', series_id: first.id });
      const res = await (auth ? req.set('Authorization', auth) : req).expect(200);
      expect((res.body.events as EventBody[]).map((e) => e.id)).toEqual(all.map((e) => e.id).slice(0, 10));
      expect(res.headers['x-wp-total']).toBe('5');
      expect(res.body.rest_url).toContain(`series_id=${first.id}`);
    }
    await t.http.get(base).query({ series_id: 'x' }).expect(400);
  });

  it('scope=following takes a new start time as scope=all does, COUNT or open-ended', async () => {
    for (const rule of ['RRULE:FREQ=WEEKLY;COUNT=6', 'RRULE:FREQ=WEEKLY', 'RRULE:FREQ=WEEKLY;UNTIL=20270112T180000Z']) {
      const first = await weekly([rule], { title: `Choir ${rule}` });
      const all = await occurrencesOf(first.id);
      const res = await t.http
        .put(`${base}/${all[2].id}?scope=following`)
        .set('Authorization', as('editor'))
        .send({
          start_date: all[2].start_date.replace(' 19:00:00', ' 20:00:00'),
          end_date: all[2].start_date.replace(' 19:00:00', ' 21:30:00'),
        });
      expect([rule, res.status, res.body.code]).toEqual([rule, 200, undefined]);
      const rest = await occurrencesOf(all[2].id);
      expect(rest.length).toBe(all.length - 2);
      expect(rest.every((e) => e.start_date.endsWith(' 20:00:00') && String(e.end_date).endsWith(' 21:30:00'))).toBe(
        true,
      );
      const old = await occurrencesOf(first.id);
      expect(old.map((e) => e.start_date.slice(11))).toEqual(['19:00:00', '19:00:00']);
    }
  });

  it('DELETE scope=this removes one occurrence and adds an EXDATE; scope=all removes the series', async () => {
    const first = await weekly(['RRULE:FREQ=WEEKLY;COUNT=4'], { title: 'Book club' });
    const all = await occurrencesOf(first.id);
    await t.http.delete(`${base}/${all[1].id}?force=true`).set('Authorization', as('editor')).expect(200);
    const after = await occurrencesOf(first.id);
    expect(after.map((e) => e.id)).toEqual([all[0].id, all[2].id, all[3].id]);
    expect(after[0].recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE:20261208T190000']);
    await t.http.delete(`${base}/${all[2].id}?scope=all`).set('Authorization', as('editor')).expect(200);
    expect(await occurrencesOf(first.id)).toEqual([]);
  });

  it('keeps the length of an occurrence whose rule time falls in the spring-forward gap', async () => {
    // Berlin skips 02:00–03:00 on 2027-03-28: the 02:30 occurrence starts at 03:30 (RFC 5545) and keeps its length.
    for (const [end, length] of [
      ['03:30:00', '04:30:00'],
      ['03:00:00', '04:00:00'],
    ]) {
      const first = await weekly(['RRULE:FREQ=DAILY;COUNT=4'], {
        title: `Night shift ${end}`,
        start_date: '2027-03-26 02:30:00',
        end_date: `2027-03-26 ${end}`,
      });
      const gap = (await occurrencesOf(first.id)).find((e) => e.start_date.startsWith('2027-03-28'));
      expect([gap?.start_date, gap?.end_date]).toEqual(['2027-03-28 03:30:00', `2027-03-28 ${length}`]);
      const minutes =
        (Date.parse(`${String(gap?.utc_end_date)}Z`) - Date.parse(`${String(gap?.utc_start_date)}Z`)) / 60_000;
      expect(minutes).toBe(end === '03:30:00' ? 60 : 30);
    }
  });

  it('takes the EXDATE out again when an occurrence deleted on its own comes back from the trash', async () => {
    const first = await weekly(['RRULE:FREQ=WEEKLY;COUNT=4'], { title: 'Restored club' });
    const all = await occurrencesOf(first.id);
    await t.http.delete(`${base}/${all[2].id}`).set('Authorization', as('editor')).expect(200);
    expect((await occurrencesOf(first.id))[0].recurrence).toEqual([
      'RRULE:FREQ=WEEKLY;COUNT=4',
      'EXDATE:20261215T190000',
    ]);
    await t.http.put(`${base}/${all[2].id}`).set('Authorization', as('editor')).send({ status: 'publish' }).expect(200);
    const after = await occurrencesOf(first.id);
    expect(after.map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(after.map((e) => e.recurrence)).toEqual(all.map(() => ['RRULE:FREQ=WEEKLY;COUNT=4']));
  });

  it('DELETE scope=following removes the occurrence and the later ones; the rule ends before it', async () => {
    const first = await weekly(['RRULE:FREQ=WEEKLY;COUNT=5'], { title: 'Pottery' });
    const all = await occurrencesOf(first.id);
    await t.http.delete(`${base}/${all[2].id}?scope=following`).set('Authorization', as('editor')).expect(200);
    const after = await occurrencesOf(first.id);
    expect(after.map((e) => e.id)).toEqual([all[0].id, all[1].id]);
    expect(after[0].recurrence).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=20261215T175959Z']);
    // Trashed, not deleted (no force): they can come back.
    const ids = all.slice(2).map((e) => e.id);
    const rows = await t.dataSource.query<{ status: string }[]>(
      `SELECT status FROM posts WHERE id IN (${ids.map(() => '?').join(',')})`,
      ids,
    );
    expect(rows.map((r) => r.status)).toEqual(['trash', 'trash', 'trash']);
  });

  it('new lines on the first occurrence keep the occurrences they still name (ids, edits) and drop or add the rest', async () => {
    const first = await weekly(['RRULE:FREQ=WEEKLY;COUNT=5'], { title: 'Knitting' });
    const all = await occurrencesOf(first.id);
    await t.http
      .put(`${base}/${all[1].id}`)
      .set('Authorization', as('editor'))
      .send({ title: 'Knitting (guest)' })
      .expect(200);
    const res = await t.http
      .put(`${base}/${first.id}`)
      .set('Authorization', as('editor'))
      .send({ recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3', 'RDATE:20270105T190000'] })
      .expect(200);
    expect(res.body.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=3', 'RDATE:20270105T190000']);
    const after = await occurrencesOf(first.id);
    expect(after.slice(0, 3).map((e) => e.id)).toEqual(all.slice(0, 3).map((e) => e.id));
    expect(after[1].title).toBe('Knitting (guest)');
    expect(after.map((e) => e.start_date)).toEqual([
      '2026-12-01 19:00:00',
      '2026-12-08 19:00:00',
      '2026-12-15 19:00:00',
      '2027-01-05 19:00:00',
    ]);
    expect(after[3].id).not.toBe(all[4].id);
    const refused = await t.http
      .put(`${base}/${all[2].id}`)
      .set('Authorization', as('editor'))
      .send({ recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] })
      .expect(400);
    expect(Object.keys(refused.body.data.params)).toEqual(['recurrence']);
  });

  it('scope=all with a new start and new lines together moves the series onto the new rule', async () => {
    const first = await weekly(['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3'], { title: 'Tai chi' });
    const all = await occurrencesOf(first.id);
    await t.http
      .put(`${base}/${all[0].id}?scope=all`)
      .set('Authorization', as('editor'))
      .send({
        start_date: '2026-12-02 08:00:00',
        end_date: '2026-12-02 09:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=3'],
      })
      .expect(200);
    const after = await occurrencesOf(first.id);
    expect(after.map((e) => e.start_date)).toEqual([
      '2026-12-02 08:00:00',
      '2026-12-09 08:00:00',
      '2026-12-16 08:00:00',
    ]);
    expect(after.map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it('scope=all and scope=following need the right to edit the first occurrence, role by role', async () => {
    const first = await weekly(['RRULE:FREQ=DAILY;COUNT=2'], { title: 'Roles series' });
    const all = await occurrencesOf(first.id);
    const expected: [Role | 'anonymous', number][] = [
      ['anonymous', 401],
      ['subscriber', 403],
      ['contributor', 403],
      ['author', 403],
      ['editor', 200],
      ['administrator', 200],
    ];
    for (const [role, status] of expected) {
      for (const scope of ['all', 'following']) {
        const req = t.http.put(`${base}/${all[1].id}?scope=${scope}`).send({ excerpt: `by ${role}` });
        const res = await (role === 'anonymous' ? req : req.set('Authorization', as(role)));
        expect([role, scope, res.status]).toEqual([role, scope, status]);
      }
    }
    const deletes: [Role | 'anonymous', number][] = [
      ['anonymous', 401],
      ['contributor', 403],
      ['author', 403],
    ];
    for (const [role, status] of deletes) {
      const req = t.http.delete(`${base}/${all[1].id}?scope=all`);
      const res = await (role === 'anonymous' ? req : req.set('Authorization', as(role)));
      expect([role, res.status]).toEqual([role, status]);
    }
    // Nothing deleted; the editors' `following` made the second occurrence a series of its own.
    const remaining = [...(await occurrencesOf(first.id)), ...(await occurrencesOf(all[1].id))];
    expect(remaining.map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it('the by-slug routes take scope as the by-id ones do', async () => {
    const first = await weekly(['RRULE:FREQ=DAILY;COUNT=3'], { title: 'Slug series' });
    const all = await occurrencesOf(first.id);
    await t.http
      .put(`${base}/by-slug/${all[1].slug}?scope=all`)
      .set('Authorization', as('editor'))
      .send({ excerpt: 'For all' })
      .expect(200);
    expect((await occurrencesOf(first.id)).map((e) => e.excerpt)).toEqual(['For all', 'For all', 'For all']);
    await t.http
      .delete(`${base}/by-slug/${all[2].slug}?scope=all&force=true`)
      .set('Authorization', as('editor'))
      .expect(200);
    expect(await occurrencesOf(first.id)).toEqual([]);
  });

  it('refuses a scope that is none, naming scope', async () => {
    const first = await weekly(['RRULE:FREQ=DAILY;COUNT=2'], { title: 'Scope check' });
    for (const request of [
      t.http.put(`${base}/${first.id}?scope=everything`).send({ title: 'x' }),
      t.http.delete(`${base}/${first.id}?scope=`),
    ]) {
      const res = await request.set('Authorization', as('editor'));
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.data.params)).toEqual(['scope']);
    }
  });

  it('recurrence null on the first occurrence ends the series: the others are removed', async () => {
    const first = await weekly(['RRULE:FREQ=DAILY;COUNT=5'], { title: 'Sprint' });
    const res = await t.http
      .put(`${base}/${first.id}`)
      .set('Authorization', as('editor'))
      .send({ recurrence: null })
      .expect(200);
    expect(res.body.series_id).toBeNull();
    expect(res.body.recurrence).toBeNull();
    expect(await occurrencesOf(first.id)).toEqual([]);
  });

  it("a contributor's series stays pending as a whole and is invisible to the public", async () => {
    const first = await weekly(
      ['RRULE:FREQ=WEEKLY;COUNT=3'],
      { title: 'Pending series', status: 'publish' },
      'contributor',
    );
    const all = await occurrencesOf(first.id);
    expect(all.map((e) => e.status)).toEqual(['pending', 'pending', 'pending']);
    const anonymous = await t.http.get(base).query({ start_date: '2000-01-01', per_page: 100 }).expect(200);
    expect((anonymous.body.events as EventBody[]).some((e) => e.series_id === first.id)).toBe(false);
    await t.http
      .put(`${base}/${all[1].id}?scope=all`)
      .set('Authorization', as('author'))
      .send({ title: 'Not theirs' })
      .expect(403);
  });

  it('an unbounded rule is expanded to the horizon, and the horizon moves forward by itself', async () => {
    const first = await weekly(['RRULE:FREQ=MONTHLY;BYDAY=-1FR'], {
      title: 'Last Friday',
      start_date: '2026-11-27 18:00:00',
      end_date: '2026-11-27 21:00:00',
    });
    const all = await occurrencesOf(first.id);
    expect(all.every((e) => new Date(`${e.start_date.slice(0, 10)}T12:00:00Z`).getUTCDay() === 5)).toBe(true);
    const last = all.at(-1)!.start_date;
    expect(last < '2028-11-02').toBe(true);
    const made = await t.app.get(SeriesHorizon).extendDue('2027-03-01 12:00:00');
    expect(made).toBeGreaterThanOrEqual(3);
    const later = await occurrencesOf(first.id);
    expect(later.slice(0, all.length).map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(later.at(-1)!.start_date > last).toBe(true);
    expect(await t.app.get(SeriesHorizon).extendDue('2027-03-01 12:00:00')).toBe(0);
  });

  it('concurrent edits of one series run one after the other: every occurrence ends up as one of them left it', async () => {
    const first = await weekly(['RRULE:FREQ=DAILY;COUNT=8'], { title: 'Busy series' });
    const all = await occurrencesOf(first.id);
    const writes = [
      t.http
        .put(`${base}/${all[2].id}?scope=all`)
        .set('Authorization', as('editor'))
        .send({ title: 'Edit A', cost: '1' }),
      t.http
        .put(`${base}/${all[5].id}?scope=all`)
        .set('Authorization', as('administrator'))
        .send({ title: 'Edit B', cost: '2' }),
      t.http.put(`${base}/${all[4].id}`).set('Authorization', as('editor')).send({ title: 'Own edit' }),
      t.http.put(`${base}/${all[6].id}?scope=following`).set('Authorization', as('editor')).send({ excerpt: 'Later' }),
    ];
    const answers = await Promise.all(writes);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const after = [...(await occurrencesOf(first.id)), ...(await occurrencesOf(all[6].id))];
    expect(after.map((e) => e.id).sort((a, b) => a - b)).toEqual(all.map((e) => e.id).sort((a, b) => a - b));
    const byId = new Map(after.map((e) => [e.id, e]));
    expect(byId.get(all[4].id)?.title).toBe('Own edit');
    const shared = after.filter((e) => e.id !== all[4].id && e.series_id === first.id);
    // Whichever edit came last, it reached every occurrence not edited on its own, title and cost together.
    expect(new Set(shared.map((e) => `${e.title}|${String(e.cost)}`)).size).toBe(1);
  });

  it('the TEC alias lists each occurrence as an event of its own, the series fields beside', async () => {
    const first = await weekly(['RRULE:FREQ=WEEKLY;COUNT=3'], {
      title: 'Alias series',
      start_date: '2029-01-02 10:00:00',
      end_date: '2029-01-02 11:00:00',
    });
    const res = await t.http
      .get('/wp-json/tribe/events/v1/events')
      .query({ start_date: '2029-01-01', end_date: '2029-01-31' })
      .expect(200);
    const listed = (res.body.events as EventBody[]).filter((e) => e.series_id === first.id);
    expect(listed.map((e) => e.start_date)).toEqual([
      '2029-01-02 10:00:00',
      '2029-01-09 10:00:00',
      '2029-01-16 10:00:00',
    ]);
    expect(new Set(listed.map((e) => e.id)).size).toBe(3);
    expect(listed.every((e) => Array.isArray(e.recurrence))).toBe(true);
  });

  it('a private series is invisible to the public, item by item and in lists', async () => {
    const first = await weekly(['RRULE:FREQ=DAILY;COUNT=3'], { title: 'Private series', status: 'private' });
    const all = await occurrencesOf(first.id);
    expect(all).toHaveLength(3);
    expect(all.every((e) => e.status === 'private')).toBe(true);
    for (const e of all) {
      const res = await t.http.get(`${base}/${e.id}`);
      expect([401, 403, 404]).toContain(res.status);
    }
    expect(await occurrencesOf(first.id, '')).toEqual([]);
  });

  it('documents recurrence and scope in the OpenAPI document, in English and in German', async () => {
    type Doc = {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; description?: string; schema?: { enum?: string[] } }[] }>
      >;
      components: {
        schemas: Record<string, { properties?: Record<string, { description?: string; example?: unknown }> }>;
      };
    };
    for (const [prefix, words] of [
      ['', 'RFC 5545'],
      ['/de', 'Serie'],
    ] as const) {
      const doc = (await t.http.get(`${prefix}/cal/events/v1/doc`).expect(200)).body as Doc;
      for (const method of ['put', 'patch', 'delete']) {
        const scope = doc.paths['/cal/events/v1/events/{id}'][method].parameters?.find((p) => p.name === 'scope');
        expect([method, scope?.schema?.enum]).toEqual([method, ['this', 'following', 'all']]);
      }
      const event = doc.components.schemas.Event.properties ?? {};
      expect(event.series_id?.description).toContain(prefix ? 'Serie' : 'series');
      expect(event.recurrence?.example).toEqual(expect.arrayContaining([expect.stringMatching(/^RRULE:/)]));
      const bodies = Object.entries(doc.components.schemas).filter(([name]) => /CreateEventDto/.test(name));
      expect(bodies.map(([, schema]) => schema.properties?.recurrence?.description ?? '')).toEqual([
        expect.stringContaining(words),
      ]);
    }
  });

  it('keeps term counts exact through series writes: create, scope=all, EXDATE, end of the series', async () => {
    const countOf = async (slug: string) => {
      const res = await t.http.get('/cal/events/v1/categories').query({ slug, hide_empty: false }).expect(200);
      return (res.body.categories as { count: number }[])[0]?.count ?? 0;
    };
    const first = await weekly(['RRULE:FREQ=DAILY;COUNT=6'], { title: 'Counted', categories: ['Series count A'] });
    const all = await occurrencesOf(first.id);
    expect(await countOf('series-count-a')).toBe(6);
    await t.http
      .put(`${base}/${all[2].id}?scope=all`)
      .set('Authorization', as('editor'))
      .send({ categories: ['Series count B'] })
      .expect(200);
    expect([await countOf('series-count-a'), await countOf('series-count-b')]).toEqual([0, 6]);
    await t.http.delete(`${base}/${all[3].id}?force=true`).set('Authorization', as('editor')).expect(200);
    expect(await countOf('series-count-b')).toBe(5);
    await t.http.put(`${base}/${first.id}`).set('Authorization', as('editor')).send({ recurrence: [] }).expect(200);
    expect(await countOf('series-count-b')).toBe(1);
  });

  it('the change feed has one change per occurrence of a series edit', async () => {
    const first = await weekly(['RRULE:FREQ=DAILY;COUNT=4'], { title: 'Feed series' });
    const all = await occurrencesOf(first.id);
    let token = '';
    for (let more = true; more;) {
      const head = await t.http
        .get('/cal/events/v1/changes')
        .query(token ? { since: token, per_page: 100 } : { per_page: 100 })
        .set('Authorization', as('administrator'))
        .expect(200);
      token = head.body.next_token as string;
      more = head.body.more as boolean;
    }
    await t.http
      .put(`${base}/${first.id}?scope=all`)
      .set('Authorization', as('editor'))
      .send({ excerpt: 'Changed for all' })
      .expect(200);
    const changes = await t.http
      .get('/cal/events/v1/changes')
      .query({ since: token })
      .set('Authorization', as('administrator'))
      .expect(200);
    const ids = (changes.body.changes as { resource: string; id: number }[])
      .filter((c) => c.resource === 'event')
      .map((c) => c.id)
      .sort((a, b) => a - b);
    expect(ids).toEqual(all.map((e) => e.id).sort((a, b) => a - b));
  });
});
