import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { cliWith } from '../support/run-cli';
import { importTec, importTecHere, type ImportSummaryJson as Summary } from '../support/imports';
import { TecFixtureServer } from '../support/tec-fixture-server';
import { createUser, type TestUser } from '../support/users';

type Json = Record<string, unknown>;
const HOME = '/cal/events/v1';
const KEY = 'test-credentials-key-0123456789abcdef';

/** Every event here, whatever its status, with its categories' names and its venue's id. */
async function eventsHere(app: TestApp, admin: TestUser): Promise<Json[]> {
  const all: Json[] = [];
  for (let page = 1; ; page++) {
    const res = await app.http
      .get(`${HOME}/events`)
      .query({
        start_date: '2000-01-01',
        status: 'publish,draft,pending,private',
        per_page: 100,
        page,
      })
      .set('Authorization', admin.auth)
      .expect(200);
    all.push(...(res.body.events as Json[]));
    if (page >= Number(res.headers['x-wp-totalpages'])) return all;
  }
}

describe('import:tec with options', () => {
  let t: TestApp;
  let admin: TestUser;
  const site = new TecFixtureServer();
  const run = (...options: string[]) => importTec(t, site.url, ...options);

  beforeAll(async () => {
    await site.start();
    t = await createTestApp({ env: { SITE_TIMEZONE: 'UTC' } });
    admin = await createUser(t, 'administrator');
  });
  afterAll(async () => {
    await t?.close();
    await site.stop();
  });

  it('previews a limited run record by record, writing nothing', async () => {
    const { summary } = await run('--dry-run', '--limit', '3', '--ignore', 'tags:*');
    const events = summary.preview!.filter((p) => p.id.startsWith('event:'));
    expect(events).toHaveLength(3);
    expect(events.every((p) => p.outcome === 'created' && typeof p.title === 'string' && p.title !== '')).toBe(true);
    expect(summary.preview!.some((p) => p.id.startsWith('tags:'))).toBe(false);
    expect(summary.skipped).toContainEqual({ id: 'events', reason: expect.stringContaining('limit of 3 events') });
    expect(await eventsHere(t, admin)).toEqual([]);
    const ignored = JSON.parse(
      (
        await cliWith(
          { DATABASE_URL: t.database.url, LOG_LEVEL: 'silent' },
          'import:ignored',
          'tec',
          site.url,
          '--json',
        )
      ).stdout,
    ) as { ignored: unknown[] };
    // A dry run leaves no trace, in the ignored records neither.
    expect(ignored.ignored).toEqual([]);
  });

  it('imports as drafts with added categories, passing by what its rules ignore, up to its limit', async () => {
    const { summary } = await run(
      '--status',
      'draft',
      '--category',
      'Imported',
      'From TEC',
      '--ignore',
      'title:*jazz*',
      'venue:5',
      '--limit',
      '60',
    );
    expect(summary).toMatchObject({ trashed: 0, failed: [] });
    const ignoredIds = summary.skipped.filter((s) => s.reason.startsWith('matches the ignore rule')).map((s) => s.id);
    expect(ignoredIds).toContain('venue:5');
    const here = await eventsHere(t, admin);
    expect(here.length).toBe(60 - ignoredIds.filter((id) => id.startsWith('event:')).length);
    for (const event of here) {
      expect(event.status).toBe('draft');
      expect(String(event.title).toLowerCase()).not.toContain('jazz');
      expect((event.categories as Json[]).map((c) => c.name)).toEqual(expect.arrayContaining(['Imported', 'From TEC']));
      expect(Array.isArray(event.venue) ? null : (event.venue as Json | null)?.venue).not.toBe('Philharmonie Berlin');
    }
    // A run with the same options (in this process: the flags' path is the run above) takes the rest;
    // nothing it took before is written again.
    const same = {
      status: 'draft',
      categories: ['Imported', 'From TEC'],
      ignore: ['title:*jazz*', 'venue:5'],
    } as const;
    const rest = await importTecHere(t, site.url, {
      ...same,
      categories: [...same.categories],
      ignore: [...same.ignore],
    });
    expect(rest).toMatchObject({ updated: 0, failed: [] });
    expect(rest.unchanged).toBeGreaterThanOrEqual(here.length);
    // Another option that shapes the records writes them again.
    const again = await importTecHere(t, site.url, { status: 'draft', ignore: [...same.ignore] });
    expect(again.updated).toBeGreaterThanOrEqual(here.length);
  });

  it('refuses options its declaration refuses, naming the flag', async () => {
    const bad = await run('--status', 'archived', '--limit', '0', '--ignore', 'title:');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--status must be one of');
    expect(bad.stderr).toContain('--limit must be at least 1');
    expect(bad.stderr).toContain('--ignore must be rules such as');
  });
});

describe('import subscriptions with options, previews, ignored records and sealed passwords', () => {
  let a: TestApp;
  let admin: TestUser;
  const site = new TecFixtureServer();
  const env = { IMPORTS_ALLOW_PRIVATE: 'true', IMPORTS_SCHEDULER: 'false', CREDENTIALS_KEY: KEY, SITE_TIMEZONE: 'UTC' };
  const api = (app: TestApp, method: 'get' | 'post' | 'patch' | 'delete', path: string) =>
    app.http[method](`${HOME}${path}`).set('Authorization', admin.auth);
  const storedPassword = async (app: TestApp, id: number) =>
    (
      await app.dataSource.query<{ p: string | null }[]>(
        'SELECT source_password AS p FROM import_subscriptions WHERE id = ?',
        [id],
      )
    )[0].p;

  beforeAll(async () => {
    await site.start();
    a = await createTestApp({ env });
    admin = await createUser(a, 'administrator');
  });
  afterAll(async () => {
    await a?.close();
    await site.stop();
  });

  it('keeps its options, shows them, clears one with null, and refuses bad ones', async () => {
    const created = await api(a, 'post', '/imports')
      .send({ kind: 'tec', url: site.url, status: 'pending', since: '2027-01-01', limit: 10, ignore: ['event:25'] })
      .expect(201);
    expect(created.body).toMatchObject({
      status: 'pending',
      categories: [],
      since: '2027-01-01',
      until: null,
      limit: 10,
      deletions: null,
      ignore: ['event:25'],
    });
    const id = created.body.id as number;
    const patched = await api(a, 'patch', `/imports/${id}`).send({ limit: null, until: '2027-06-30' }).expect(200);
    expect(patched.body).toMatchObject({ status: 'pending', since: '2027-01-01', until: '2027-06-30', limit: null });
    const bad = await api(a, 'patch', `/imports/${id}`)
      .send({ status: 'archived', since: '2027-02-30', limit: 0, ignore: ['title:'], deletions: 'purge' })
      .expect(400);
    expect(Object.keys(bad.body.data.params).sort()).toEqual(['deletions', 'ignore', 'limit', 'since', 'status']);
    await api(a, 'delete', `/imports/${id}`).expect(200);
  });

  it('previews a run without writing, runs it, lists and clears what it ignored', async () => {
    const sub = (
      await api(a, 'post', '/imports')
        .send({
          kind: 'tec',
          url: site.url,
          user: 'importer',
          password: 'app pass 1',
          ignore: ['event:25', 'title:*run*'],
        })
        .expect(201)
    ).body as Json;
    const id = sub.id as number;
    const preview = (await api(a, 'post', `/imports/${id}/preview`).expect(200)).body as Summary & { dry_run: boolean };
    expect(preview.dry_run).toBe(true);
    // On an empty calendar every record it would write, it would create: the preview names each one.
    expect(preview.preview!.filter((p) => p.outcome === 'created')).toHaveLength(preview.created);
    expect(preview.created).toBeGreaterThan(250);
    expect(preview.preview!.map((p) => p.id)).not.toContain('event:25');
    expect(await eventsHere(a, admin)).toEqual([]);
    const ran = (await api(a, 'post', `/imports/${id}/run?wait=true`).expect(200)).body as Json;
    expect(ran).toMatchObject({ status: 'succeeded', created: preview.created });
    const ignored = (await api(a, 'get', `/imports/${id}/ignored`).query({ per_page: 100 }).expect(200)).body as {
      ignored: { source_id: string; reason: string }[];
    };
    expect(ignored.ignored.map((r) => r.source_id)).toContain('event:25');
    expect(ignored.ignored.every((r) => r.reason.startsWith('matches the ignore rule'))).toBe(true);
    const one = await api(a, 'delete', `/imports/${id}/ignored`).query({ source_id: 'event:25' }).expect(200);
    expect(one.body).toEqual({ cleared: 1 });
    const all = await api(a, 'delete', `/imports/${id}/ignored`).expect(200);
    expect(all.body).toEqual({ cleared: ignored.ignored.length - 1 });
    expect((await api(a, 'get', `/imports/${id}/ignored`).expect(200)).body.ignored).toEqual([]);
    await api(a, 'delete', `/imports/999999/ignored`).expect(404);
  });

  it('keeps a password sealed, uses it, and reseals one kept readable or under a previous key', async () => {
    const created = (
      await api(a, 'post', '/imports')
        .send({ kind: 'tec', url: site.url, user: 'importer', password: 'app pass 2', limit: 1 })
        .expect(201)
    ).body as Json;
    const id = created.id as number;
    const stored = await storedPassword(a, id);
    expect(stored).toMatch(/^sealed:v1:[0-9a-f]{8}:/);
    expect(stored).not.toContain('app pass 2');
    site.requests.length = 0;
    await api(a, 'post', `/imports/${id}/run?wait=true`).expect(200);
    expect(new Set(site.requests.map((r) => r.credentials))).toEqual(new Set(['importer:app pass 2']));
    // An older build kept it readable: the next run seals it.
    await a.dataSource.query('UPDATE import_subscriptions SET source_password = ? WHERE id = ?', ['legacy pass', id]);
    site.requests.length = 0;
    await api(a, 'post', `/imports/${id}/run?wait=true`).expect(200);
    expect(new Set(site.requests.map((r) => r.credentials))).toEqual(new Set(['importer:legacy pass']));
    const resealed = await storedPassword(a, id);
    expect(resealed).toMatch(/^sealed:v1:/);
    // A new key, the old one kept as previous: opened, and sealed again with the new one.
    const rotated = await createTestApp({
      database: a.database,
      env: { ...env, CREDENTIALS_KEY: `rotated-${KEY}`, CREDENTIALS_PREVIOUS_KEYS: KEY },
    });
    try {
      site.requests.length = 0;
      await rotated.http.post(`${HOME}/imports/${id}/run?wait=true`).set('Authorization', admin.auth).expect(200);
      expect(new Set(site.requests.map((r) => r.credentials))).toEqual(new Set(['importer:legacy pass']));
      const again = await storedPassword(a, id);
      expect(again).toMatch(/^sealed:v1:/);
      expect(again!.split(':')[2]).not.toBe(resealed!.split(':')[2]);
    } finally {
      await rotated.close();
    }
    // Without the key that sealed it: the run fails and says how to mend it.
    const keyless = await createTestApp({ database: a.database, env: { ...env, CREDENTIALS_KEY: `other-${KEY}` } });
    try {
      const failed = await keyless.http
        .post(`${HOME}/imports/${id}/run?wait=true`)
        .set('Authorization', admin.auth)
        .expect(200);
      expect(failed.body).toMatchObject({
        status: 'failed',
        failed: [{ reason: expect.stringContaining('CREDENTIALS_KEY') }],
      });
    } finally {
      await keyless.close();
    }
  });

  it('refuses to keep a password without CREDENTIALS_KEY, and keeps a subscription without one', async () => {
    const bare = await createTestApp({ database: a.database, env: { ...env, CREDENTIALS_KEY: '' } });
    try {
      const refused = await bare.http
        .post(`${HOME}/imports`)
        .set('Authorization', admin.auth)
        .send({ kind: 'tec', url: site.url, user: 'importer', password: 'x' })
        .expect(400);
      expect(refused.body.code).toBe('rest-credentials-key-missing');
      await bare.http
        .post(`${HOME}/imports`)
        .set('Authorization', admin.auth)
        .send({ kind: 'tec', url: site.url })
        .expect(201);
    } finally {
      await bare.close();
    }
  });
});

describe('import:ical with options', () => {
  let t: TestApp;
  let admin: TestUser;
  const file = join(mkdtempSync(join(tmpdir(), 'ical-options-')), 'feed.ics');
  const vevent = (uid: string, start: string, title: string) => [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${start}`,
    `SUMMARY:${title}`,
    'END:VEVENT',
  ];
  const cli = (...args: string[]) =>
    cliWith({ DATABASE_URL: t.database.url, LOG_LEVEL: 'silent', SITE_TIMEZONE: 'UTC' }, ...args);

  beforeAll(async () => {
    writeFileSync(
      file,
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//test//options//EN',
        ...vevent('a@x', '20270110T100000Z', 'January talk'),
        ...vevent('b@x', '20270210T100000Z', 'February webinar'),
        ...vevent('c@x', '20270310T100000Z', 'March talk'),
        ...vevent('d@x', '20270410T100000Z', 'April talk'),
        'END:VCALENDAR',
      ].join('\r\n'),
    );
    t = await createTestApp({ env: { SITE_TIMEZONE: 'UTC' } });
    admin = await createUser(t, 'administrator');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes a window, a status and ignore rules, and trashes nothing as gone from a window', async () => {
    const first = JSON.parse(
      (
        await cli(
          'import:ical',
          file,
          '--json',
          '--since',
          '2027-02-01',
          '--until',
          '2027-03-31',
          '--status',
          'pending',
          '--ignore',
          'title:*webinar*',
        )
      ).stdout,
    ) as Summary;
    expect(first).toMatchObject({ created: 1, failed: [], skipped: [{ id: 'b@x' }] });
    const here = await eventsHere(t, admin);
    expect(here.map((e) => [e.title, e.status])).toEqual([['March talk', 'pending']]);
    const all = JSON.parse((await cli('import:ical', file, '--json')).stdout) as Summary;
    // The webinar stays ignored (the source's list), the rest come, published; March is written again (the
    // options that shaped it changed), its status here kept.
    expect(all).toMatchObject({ created: 2, updated: 1, unchanged: 0, trashed: 0, skipped: [{ id: 'b@x' }] });
    const narrow = JSON.parse((await cli('import:ical', file, '--json', '--until', '2027-01-31')).stdout) as Summary;
    expect(narrow).toMatchObject({ created: 0, trashed: 0, unchanged: 1 });
    expect((await eventsHere(t, admin)).map((e) => e.status)).toEqual(['publish', 'pending', 'publish']);
  });
});
