import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { archivePages } from '../support/archive-pages';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { captureStatements } from '../support/statements';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const NOW = new Date('2030-05-01T12:00:00Z');
const WINDOW = 'start_date=2030-06-01&end_date=2030-06-30';
/** The index skip's statement: the page's rows joined to its ids from the listing index, with the range's count. */
const INDEX_SKIP = /SELECT COUNT\(\*\) FROM event_details c WHERE/;
/** The page query, which skips by OFFSET over the rows it joins. */
const PAGE_QUERY = /hide_from_listings[`"]? \+ 0 = 0/;

/**
 * A page that starts deep into a busy day skips that day's earlier events by the listing index alone,
 * and only while the day counts and the index agree that every event there is listed; otherwise the page
 * query reads it. Either way the pages are those of a query the day counts cannot serve.
 */
describe('deep pages into a busy day', () => {
  let t: TestApp;
  let editor: TestUser;
  const busyDay: number[] = [];

  const wall = (day: number, minute: number) =>
    `2030-06-${String(day).padStart(2, '0')} ${String(8 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;

  async function pageRead(page: number, perPage = 10): Promise<{ ids: number[]; statements: string[] }> {
    let ids: number[] = [];
    const statements = await captureStatements(t, async () => {
      const res = await t.http.get(`${ns}/events?${WINDOW}&per_page=${perPage}&page=${page}`).expect(200);
      ids = (res.body as { events: { id: number }[] }).events.map((e) => e.id);
    });
    return { ids, statements };
  }

  /** Every page equals the page of `featured=false` (true of every event here), which counts rows. */
  async function expectPagesAsCounted(perPage: number): Promise<void> {
    const served = await archivePages(t, WINDOW, perPage);
    const counted = await archivePages(t, `${WINDOW}&featured=false`, perPage);
    expect(served).toEqual(counted);
  }

  beforeAll(async () => {
    t = await createTestApp({ now: NOW, env: { RESPONSE_CACHE_MB: '0' } });
    editor = await createUser(t, 'editor');
    for (let i = 0; i < 10; i++) {
      await postEvent(t, editor.auth, { title: `Eve ${i}`, start_date: wall(14, i), end_date: wall(14, i + 30) });
    }
    // Pairs share a start, so the page order falls back to the id.
    for (let i = 0; i < 70; i++) {
      const start = Math.floor(i / 2) * 5;
      const event = await postEvent(t, editor.auth, {
        title: `Busy ${i}`,
        start_date: wall(15, start),
        end_date: wall(15, start + 60),
      });
      busyDay.push(event.id);
    }
    for (let i = 0; i < 10; i++) {
      await postEvent(t, editor.auth, { title: `After ${i}`, start_date: wall(16, i), end_date: wall(16, i + 30) });
    }
  });
  afterAll(() => t.close());

  it('skips into the busy day by the listing index, and lists every page as the row count does', async () => {
    // Page 6 starts 40 events into the busy day (10 before it, on the eve).
    const deep = await pageRead(6);
    expect(deep.statements.some((sql) => INDEX_SKIP.test(sql))).toBe(true);
    expect(deep.statements.some((sql) => PAGE_QUERY.test(sql))).toBe(false);
    expect(deep.ids).toEqual(busyDay.slice(40, 50));
    // Page 2 starts on the busy day's first event: the page query's own skip is cheaper there.
    const shallow = await pageRead(2);
    expect(shallow.statements.some((sql) => INDEX_SKIP.test(sql))).toBe(false);
    expect(shallow.ids).toEqual(busyDay.slice(0, 10));
    // A page that runs past the busy day into the next, and the last page.
    expect((await pageRead(8)).ids).toEqual(busyDay.slice(60, 70));
    await expectPagesAsCounted(10);
    await expectPagesAsCounted(45);
  });

  it('bounds the start of the rows its pages read by the window’s end, so a last page stops there', async () => {
    // Without the bound, a page that finds fewer rows than it asks for reads on through every later event.
    const readsRows = (sql: string) => INDEX_SKIP.test(sql) || PAGE_QUERY.test(sql);
    for (const page of [1, 8, 9]) {
      const { statements } = await pageRead(page);
      const rows = statements.filter(readsRows);
      expect({ page, rows: rows.length }).toEqual({ page, rows: 1 });
      expect(rows[0]).toMatch(/start_utc[`"]? <=? \?[\s\S]*ORDER BY/);
    }
  });

  it('reads the page by its rows when an event of the day is a draft, private, trashed or hidden', async () => {
    const edit = (id: number, fields: Record<string, unknown>) =>
      t.http.post(`${ns}/events/${id}`).set('Authorization', editor.auth).send(fields).expect(200);
    await edit(busyDay[3], { status: 'draft' });
    const withDraft = await pageRead(6);
    expect(withDraft.statements.some((sql) => INDEX_SKIP.test(sql))).toBe(true);
    expect(withDraft.statements.some((sql) => PAGE_QUERY.test(sql))).toBe(true);
    expect(withDraft.ids).toEqual(busyDay.filter((id) => id !== busyDay[3]).slice(40, 50));
    await edit(busyDay[5], { status: 'private' });
    await t.http.delete(`${ns}/events/${busyDay[7]}`).set('Authorization', editor.auth).expect(200);
    await edit(busyDay[9], { hide_from_listings: true });
    await expectPagesAsCounted(10);
    const gone = new Set([busyDay[3], busyDay[5], busyDay[7], busyDay[9]]);
    expect((await pageRead(6)).ids).toEqual(busyDay.filter((id) => !gone.has(id)).slice(40, 50));
    // Published again, the day is all listed but the hidden one, which the index leaves out on both sides.
    await edit(busyDay[3], { status: 'publish' });
    await edit(busyDay[5], { status: 'publish' });
    await t.http
      .post(`${ns}/events/${busyDay[7]}`)
      .set('Authorization', editor.auth)
      .send({ status: 'publish' })
      .expect(200);
    const back = await pageRead(6);
    expect(back.statements.some((sql) => PAGE_QUERY.test(sql))).toBe(false);
    expect(back.ids).toEqual(busyDay.filter((id) => id !== busyDay[9]).slice(40, 50));
    await expectPagesAsCounted(10);
  });
});
