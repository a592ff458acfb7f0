import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeHTML } from 'entities';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { cliWith } from '../support/run-cli';
import { importTecHere, type ImportSummaryJson as Summary } from '../support/imports';
import type { ImportOptions } from '../../src/modules/imports/dto/import-options.dto';
import { TecFixtureServer } from '../support/tec-fixture-server';
import { createUser, type TestUser } from '../support/users';

type Json = Record<string, unknown>;
const TEC = '/wp-json/tribe/events/v1';
const ALL_EVENTS = { per_page: '50', start_date: '2000-01-01 00:00:00' };
const HOME = '/cal/events/v1';
/** 291 listed events, 9 hidden ones, 10 venues, 10 organizers, 16 categories, 20 tags. */
const RECORDS = 291 + 9 + 10 + 10 + 16 + 20;

/** The id here of the post whose slug is `slug`, of the stored type `type`, whatever its status. */
async function idOf(app: TestApp, type: string, slug: string): Promise<number> {
  const rows = await app.dataSource.query<{ id: number }[]>('SELECT id FROM posts WHERE type = ? AND slug = ?', [
    type,
    slug,
  ]);
  expect(rows).toHaveLength(1);
  return Number(rows[0].id);
}

/** A post's status here, trash included (a trashed record reads as 403 through the API, for everyone). */
async function statusOf(app: TestApp, id: number): Promise<string> {
  const rows = await app.dataSource.query<{ status: string }[]>('SELECT status FROM posts WHERE id = ?', [id]);
  return rows[0]?.status ?? 'gone';
}

/** The hidden events, which TEC answers only by id. */
const hiddenEvents = (site: TecFixtureServer): Json[] =>
  [33, 68, 102, 138, 173, 207, 243, 278, 312].map(
    (id) => site.answer(`${TEC}/events/${id}`, {}, 'admin')!.body as Json,
  );

/** The protected events' passwords, with which the site answers them whole. */
const PASSWORDS: Record<number, string> = {
  52: 'pw-27',
  105: 'pw-77',
  158: 'pw-127',
  211: 'pw-177',
  264: 'pw-227',
  317: 'pw-277',
};

/** Every listed event as the import reads it: a protected one whole, as its password opens it. */
function recordedEvents(site: TecFixtureServer): Json[] {
  const all: Json[] = [];
  for (let page = 1; ; page++) {
    const answer = site.answer(`${TEC}/events`, { ...ALL_EVENTS, page: String(page) }, 'admin')!;
    all.push(...((answer.body as Json).events as Json[]));
    if (page >= Number(answer.headers['x-tec-totalpages']))
      return all.map((e) => {
        const password = PASSWORDS[Number(e.id)];
        return password ? (site.answer(`${TEC}/events/${Number(e.id)}`, { password }, 'anonymous')!.body as Json) : e;
      });
  }
}

describe('import:tec follows what happens at the source', () => {
  let t: TestApp;
  let admin: TestUser;
  const site = new TecFixtureServer();
  const run = (options: ImportOptions = {}): Promise<Summary> => importTecHere(t, site.url, options);

  beforeAll(async () => {
    await site.start();
    t = await createTestApp({ env: { SITE_TIMEZONE: 'UTC' } });
    admin = await createUser(t, 'administrator');
    expect(await run()).toMatchObject({ created: RECORDS, failed: [] });
  });
  afterAll(async () => {
    await t?.close();
    await site.stop();
  });

  it('trashes an event trashed at the source, and restores it when the source restores it', async () => {
    const event = recordedEvents(site).find((e) => e.status === 'publish' && e.show_map !== null)!;
    const ours = await idOf(t, 'cal_event', String(event.slug));
    site.gonePosts.add(Number(event.id));
    expect(await run()).toMatchObject({ trashed: 1, created: 0, updated: 0, failed: [] });
    expect(await statusOf(t, ours)).toBe('trash');
    site.gonePosts.delete(Number(event.id));
    // Unchanged at the source, but trashed here: written again, not passed by as unchanged.
    expect(await run()).toMatchObject({ trashed: 0, created: 0, updated: 1, failed: [] });
    expect(await statusOf(t, ours)).toBe('publish');
    await t.http.get(`${HOME}/events/${ours}`).expect(200);
    expect(await run()).toMatchObject({ trashed: 0, created: 0, updated: 0, unchanged: RECORDS, failed: [] });
  });

  it('leaves out what an editor trashed or deleted here, in the list of ignored records until it is cleared', async () => {
    const events = recordedEvents(site).filter((e) => e.status === 'publish' && e.show_map !== null);
    const [trashed, deleted] = [events[1], events[2]];
    const ours = {
      trashed: await idOf(t, 'cal_event', String(trashed.slug)),
      deleted: await idOf(t, 'cal_event', String(deleted.slug)),
    };
    await t.http.delete(`${HOME}/events/${ours.trashed}`).set('Authorization', admin.auth).expect(200);
    await t.http
      .delete(`${HOME}/events/${ours.deleted}`)
      .query({ force: 'true' })
      .set('Authorization', admin.auth)
      .expect(200);
    const ignoredRun = await run();
    expect(ignoredRun).toMatchObject({ created: 0, updated: 0, unchanged: RECORDS - 2, trashed: 0, failed: [] });
    expect(ignoredRun.skipped).toEqual([
      { id: `event:${Number(trashed.id)}`, reason: expect.stringContaining('trashed here after it was imported') },
      { id: `event:${Number(deleted.id)}`, reason: expect.stringContaining('deleted here after it was imported') },
    ]);
    expect(await statusOf(t, ours.trashed)).toBe('trash');
    // The list, by the CLI; the next run passes them by as listed.
    const cli = (...args: string[]) =>
      cliWith({ DATABASE_URL: t.database.url, LOG_LEVEL: 'silent', SITE_TIMEZONE: 'UTC' }, ...args);
    const listed = JSON.parse((await cli('import:ignored', 'tec', site.url, '--json')).stdout) as {
      ignored: { source_id: string; title: string }[];
    };
    expect(listed.ignored.map((r) => [r.source_id, r.title])).toEqual([
      [`event:${Number(trashed.id)}`, decodeHTML(String(trashed.title))],
      [`event:${Number(deleted.id)}`, decodeHTML(String(deleted.title))],
    ]);
    expect((await run()).skipped.map((s) => s.reason)).toEqual([
      'in the list of ignored records',
      'in the list of ignored records',
    ]);
    // Cleared one by one, then whole: each comes back (restored, or made anew).
    await cli('import:ignored', 'tec', site.url, '--clear', '--id', `event:${Number(trashed.id)}`);
    expect(await run()).toMatchObject({ created: 0, updated: 1, skipped: [{ id: `event:${Number(deleted.id)}` }] });
    expect(await statusOf(t, ours.trashed)).toBe('publish');
    await cli('import:ignored', 'tec', site.url, '--clear');
    expect(await run()).toMatchObject({ created: 1, updated: 0, skipped: [] });
    await t.http.get(`${HOME}/events/${await idOf(t, 'cal_event', String(deleted.slug))}`).expect(200);
    expect(await run()).toMatchObject({ created: 0, updated: 0, unchanged: RECORDS, failed: [], skipped: [] });
  });

  it('reports, then trashes, a venue and a tag deleted at the source; their events follow', async () => {
    const events = [...recordedEvents(site), ...hiddenEvents(site)];
    const venue = (events.find((e) => !Array.isArray(e.venue))!.venue as Json) ?? {};
    const tag = (events.find((e) => (e.tags as Json[]).length > 0)!.tags as Json[])[0] ?? {};
    const using = events.filter(
      (e) =>
        (!Array.isArray(e.venue) && (e.venue as Json).id === venue.id) ||
        (e.tags as Json[]).some((x) => x.id === tag.id),
    );
    site.gonePosts.add(Number(venue.id));
    site.goneTerms.add(Number(tag.id));
    const ourVenue = await idOf(t, 'cal_venue', String(venue.slug));
    const reported = await run({ deletions: 'report' });
    expect(reported).toMatchObject({ trashed: 0, updated: using.length, failed: [] });
    expect(reported.notes.map((n) => n.id).sort()).toEqual([`tags:${Number(tag.id)}`, `venue:${Number(venue.id)}`]);
    expect(await statusOf(t, ourVenue)).toBe('publish');
    const trashed = await run();
    expect(trashed).toMatchObject({ trashed: 2, updated: 0, failed: [] });
    expect(await statusOf(t, ourVenue)).toBe('trash');
    const tags = await t.http.get(`${HOME}/tags`).query({ search: String(tag.name), hide_empty: 'false' });
    expect((tags.body.tags as Json[]).map((x) => x.slug)).not.toContain(tag.slug);
    expect(await run()).toMatchObject({ trashed: 0, updated: 0, created: 0, failed: [] });
    // Back at the source: made anew (the tag) or restored (the venue).
    site.gonePosts.delete(Number(venue.id));
    site.goneTerms.delete(Number(tag.id));
    const back = await run();
    expect(back).toMatchObject({ created: 1, updated: 1 + using.length, trashed: 0, failed: [] });
    expect(await statusOf(t, ourVenue)).toBe('publish');
  });
});

describe('import:tec from a site without WordPress’s list of event posts', () => {
  let t: TestApp;
  const site = new TecFixtureServer();
  const run = async (...options: string[]): Promise<Summary> =>
    JSON.parse(
      (
        await cliWith(
          { DATABASE_URL: t.database.url, LOG_LEVEL: 'silent', SITE_TIMEZONE: 'UTC' },
          'import:tec',
          site.url,
          '--user',
          'admin',
          '--password',
          'pw',
          '--json',
          ...options,
        )
      ).stdout,
    ) as Summary;

  beforeAll(async () => {
    site.wpIndex = false;
    await site.start();
    t = await createTestApp({ env: { SITE_TIMEZONE: 'UTC' } });
    await createUser(t, 'administrator');
  });
  afterAll(async () => {
    await t?.close();
    await site.stop();
  });

  it('finds the hidden events among the ids the list skips, asking once for each, and says so', async () => {
    const listed = recordedEvents(site).map((e) => Number(e.id));
    const skipped = [];
    for (let id = Math.min(...listed); id < Math.max(...listed); id++) if (!listed.includes(id)) skipped.push(id);
    const summary = await run();
    expect(summary).toMatchObject({ created: RECORDS, failed: [], skipped: [] });
    const asked = site.requests
      .filter((r) => /\/events\/\d+\?$/.test(r.key))
      .map((r) => Number(/(\d+)\?$/.exec(r.key)![1]));
    expect(asked.sort((a, b) => a - b)).toEqual(skipped);
    expect(summary.notes.find((n) => n.id === 'events')?.reason).toContain(`among the ${skipped.length} ids`);
    // Without the list, no passwords: the protected events come as listed, protected by an unknown password.
    expect(summary.notes.filter((n) => n.reason.includes('password-protected'))).toHaveLength(6);
  });

  it('takes a window of dates: only those events, and nothing trashed as gone', async () => {
    const summary = await run('--since', '2027-01-01', '--until', '2027-03-31');
    expect(summary).toMatchObject({ created: 0, trashed: 0, failed: [] });
    const inWindow = [...recordedEvents(site), ...hiddenEvents(site)].filter(
      (e) => String(e.end_date) >= '2027-01-01' && String(e.start_date) <= '2027-03-31 23:59:59',
    );
    expect(inWindow.length).toBeGreaterThan(10);
    expect(summary.unchanged).toBe(36 + 20 + inWindow.length);
  });

  it('refuses a date that is no day', async () => {
    const out = await cliWith(
      { DATABASE_URL: t.database.url, LOG_LEVEL: 'silent' },
      'import:tec',
      site.url,
      '--until',
      '2027-02-30',
    );
    expect(out.stderr).toContain('--until must be a day such as 2027-01-31');
    expect(out.code).toBe(1);
  });
});
