import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ImportRunEntity } from '../../src/modules/imports/subscriptions/import-run.entity';
import { ImportScheduler } from '../../src/modules/imports/subscriptions/import-scheduler';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';

/** An iCalendar feed of `events` (uid → summary and day in 2031), with an ETag. */
function feedOf(events: Record<string, { summary: string; day: string }>): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//subscriptions//EN'];
  for (const [uid, { summary, day }] of Object.entries(events)) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${uid}`,
      'DTSTAMP:20310101T000000Z',
      `DTSTART;TZID=Europe/Berlin:2031${day}T190000`,
      `DTEND;TZID=Europe/Berlin:2031${day}T210000`,
      `SUMMARY:${summary}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

/** A feed on 127.0.0.1 that answers 304 to a matching If-None-Match, HTML on demand, or holds a request. */
class FeedServer {
  body = '';
  html = false;
  /** While set, requests wait: `release()` answers them. */
  holding = false;
  requests: { ifNoneMatch: string | undefined }[] = [];
  private held: (() => void)[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<string> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      this.requests.push({ ifNoneMatch: req.headers['if-none-match'] });
      const answer = () => {
        if (this.html) {
          res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Maintenance</body></html>');
          return;
        }
        const etag = `"${createHash('sha256').update(this.body).digest('hex').slice(0, 16)}"`;
        if (req.headers['if-none-match'] === etag) {
          res.writeHead(304, { ETag: etag }).end();
          return;
        }
        res.writeHead(200, { 'Content-Type': 'text/calendar', ETag: etag }).end(this.body);
      };
      if (this.holding) this.held.push(answer);
      else answer();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/feed.ics`;
    return this.url;
  }

  release(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  async stop(): Promise<void> {
    this.release();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

interface RunBody {
  id: number;
  started_utc: string;
  finished_utc: string;
  status: string;
  trigger: string;
  created: number;
  updated: number;
  unchanged: number;
  trashed: number;
  notes: { id: string; reason: string }[];
  failed: { id: string; reason: string }[];
}

describe('import subscriptions (/imports)', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  const feed = new FeedServer();
  const env = {
    IMPORTS_ALLOW_PRIVATE: 'true',
    IMPORTS_SCHEDULER: 'false',
    IMPORTS_FETCH_TIMEOUT_SECONDS: '5',
    CREDENTIALS_KEY: 'test-credentials-key-0123456789abcdef',
  };
  const api = (app: TestApp, method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string) =>
    app.http[method](`${ns}${path}`).set('Authorization', admin.auth);
  const runNow = async (id: number) =>
    (await api(a, 'post', `/imports/${id}/run?wait=true`).expect(200)).body as RunBody;
  const eventsTitled = async (title: string) => {
    const res = await a.http
      .get(`${ns}/events`)
      .query({ start_date: '2031-01-01', end_date: '2031-12-31', per_page: 50, search: title })
      .set('Authorization', admin.auth)
      .expect(200);
    return res.body.events as { id: number; title: string; status: string }[];
  };

  beforeAll(async () => {
    await feed.start();
    a = await createTestApp({ env });
    b = await createTestApp({ database: a.database, env });
    admin = await createUser(a, 'administrator');
    editor = await createUser(a, 'editor');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await feed.stop();
  });

  it('is for administrators: create, list, read, update, delete, with clear errors', async () => {
    const body = { kind: 'tec', url: 'https://93.184.216.34/', user: 'importer', password: 'secret app password' };
    await a.http.get(`${ns}/imports`).expect(401);
    await a.http.post(`${ns}/imports`).set('Authorization', editor.auth).send(body).expect(403);
    const created = await api(a, 'post', '/imports').send(body).expect(201);
    expect(created.body).toMatchObject({
      kind: 'tec',
      url: 'https://93.184.216.34/',
      user: 'importer',
      has_password: true,
      interval_minutes: 60,
      overwrite: 'source_wins',
      enabled: true,
      last_run: null,
    });
    expect(JSON.stringify(created.body)).not.toContain('secret app password');
    const id = created.body.id as number;
    const list = await api(a, 'get', '/imports').expect(200);
    expect(list.body.imports.map((i: { id: number }) => i.id)).toContain(id);
    expect(list.headers['x-wp-total']).toBeDefined();
    const patched = await api(a, 'patch', `/imports/${id}`)
      .send({ interval_minutes: 15, overwrite: 'keep_local_edits', password: '' })
      .expect(200);
    expect(patched.body).toMatchObject({ interval_minutes: 15, overwrite: 'keep_local_edits', has_password: false });
    // PUT is the same partial update (as every update route here): what it leaves out stays.
    const put = await api(a, 'put', `/imports/${id}`).send({ enabled: false, user: '' }).expect(200);
    expect(put.body).toMatchObject({ enabled: false, user: '', interval_minutes: 15, overwrite: 'keep_local_edits' });
    expect((await api(a, 'get', `/imports/${id}`).expect(200)).body).toMatchObject({ enabled: false, user: '' });
    expect((await api(a, 'put', '/imports/999999').send({ enabled: true }).expect(404)).body.code).toBe(
      'rest-import-not-found',
    );
    const bad = await api(a, 'post', '/imports').send({ kind: 'rss', url: 'ftp://x', interval_minutes: 1 }).expect(400);
    expect(Object.keys(bad.body.data.params).sort()).toEqual(['interval_minutes', 'kind', 'url']);
    expect((await api(a, 'get', `/imports/${id}/runs/999999`).expect(404)).body.code).toBe('rest-import-run-not-found');
    const badWait = await api(a, 'post', `/imports/${id}/run?wait=maybe`).expect(400);
    expect(Object.keys(badWait.body.data.params)).toEqual(['wait']);
    await api(a, 'delete', `/imports/${id}`).expect(200);
    expect((await api(a, 'get', `/imports/${id}`).expect(404)).body.code).toBe('rest-import-not-found');
    expect((await api(a, 'get', `/imports/${id}/runs/1`).expect(404)).body.code).toBe('rest-import-not-found');
  });

  it('refuses loopback, private and link-local sources unless IMPORTS_ALLOW_PRIVATE', async () => {
    const guarded = await createTestApp({ database: a.database, env: { IMPORTS_SCHEDULER: 'false' } });
    try {
      for (const url of [feed.url, 'http://10.1.2.3/feed.ics', 'http://169.254.169.254/latest', 'http://[::1]/x']) {
        const res = await guarded.http
          .post(`${ns}/imports`)
          .set('Authorization', admin.auth)
          .send({ kind: 'ical', url })
          .expect(400);
        expect([url, res.body.data.params.url]).toEqual([url, expect.stringContaining('IMPORTS_ALLOW_PRIVATE=true')]);
      }
    } finally {
      await guarded.close();
    }
  });

  it('runs a feed now, records the run, asks again conditionally and trashes what left the feed', async () => {
    feed.body = feedOf({
      'quiz@sub': { summary: 'Pub quiz', day: '0305' },
      'choir@sub': { summary: 'Choir rehearsal', day: '0306' },
    });
    const created = await api(a, 'post', '/imports').send({ kind: 'ical', url: feed.url, categories: ['Feeds'] });
    const id = created.body.id as number;
    const first = await runNow(id);
    expect(first).toMatchObject({ trigger: 'manual', status: 'succeeded', created: 2, failed: [] });
    expect(await eventsTitled('Pub quiz')).toHaveLength(1);
    // The same feed again: a conditional GET, answered 304, reads nothing.
    const second = await runNow(id);
    expect(second).toMatchObject({ status: 'not_modified', created: 0, updated: 0 });
    expect(feed.requests.at(-1)?.ifNoneMatch).toMatch(/^"/);
    feed.body = feedOf({ 'quiz@sub': { summary: 'Pub quiz (final)', day: '0305' } });
    const third = await runNow(id);
    expect(third).toMatchObject({ status: 'succeeded', updated: 1, trashed: 1 });
    expect((await eventsTitled('Choir')).map((e) => e.status)).toEqual([]);
    const runs = await api(a, 'get', `/imports/${id}/runs`).expect(200);
    expect(runs.body.runs.map((r: RunBody) => r.id)).toEqual([third.id, second.id, first.id]);
    expect((await api(a, 'get', `/imports/${id}/runs/${third.id}`).expect(200)).body).toEqual(third);
    expect((await api(a, 'get', `/imports/${id}`).expect(200)).body.last_run).toEqual(third);
  });

  it('keeps what an editor changed here with keep_local_edits, and overwrites it with source_wins', async () => {
    feed.body = feedOf({ 'talk@sub': { summary: 'Evening talk', day: '0410' } });
    const id = (await api(a, 'post', '/imports').send({ kind: 'ical', url: feed.url, overwrite: 'keep_local_edits' }))
      .body.id as number;
    const imported = await runNow(id);
    expect(imported).toMatchObject({ created: 1 });
    const [talk] = await eventsTitled('Evening talk');
    // An edit in a later second than the run's end: edits are told apart from imports by their time.
    for (let looks = 0; stillSecondOf(imported.finished_utc); looks++) {
      await a.dataSource.query('SELECT 1');
      expect(looks).toBeLessThan(1_000_000);
    }
    await a.http
      .patch(`${ns}/events/${talk.id}`)
      .set('Authorization', editor.auth)
      .send({ title: 'Evening talk (room 2)' })
      .expect(200);
    feed.body = feedOf({ 'talk@sub': { summary: 'Evening talk (moved)', day: '0411' } });
    const kept = await runNow(id);
    expect(kept.notes).toEqual([{ id: 'talk@sub', reason: expect.stringContaining('keep_local_edits') }]);
    expect((await a.http.get(`${ns}/events/${talk.id}`).set('Authorization', admin.auth)).body.title).toBe(
      'Evening talk (room 2)',
    );
    await api(a, 'patch', `/imports/${id}`).send({ overwrite: 'source_wins' }).expect(200);
    expect(await runNow(id)).toMatchObject({ updated: 1, notes: [] });
    expect((await a.http.get(`${ns}/events/${talk.id}`).set('Authorization', admin.auth)).body.title).toBe(
      'Evening talk (moved)',
    );
  });

  it('records a source that is not iCalendar as a failed run, writing nothing, and answers 409 while a run is on', async () => {
    feed.html = true;
    const id = (await api(a, 'post', '/imports').send({ kind: 'ical', url: `${feed.url}?broken` })).body.id as number;
    const failed = await runNow(id);
    expect(failed).toMatchObject({ status: 'failed', created: 0 });
    expect(failed.failed).toEqual([{ id: '', reason: expect.stringContaining('not iCalendar') }]);
    feed.html = false;
    feed.body = feedOf({ 'late@sub': { summary: 'Late show', day: '0701' } });
    feed.holding = true;
    const requestsBefore = feed.requests.length;
    // Without `wait` the answer comes as the run starts: 202, the run as recorded, and where to follow it.
    const started = await api(a, 'post', `/imports/${id}/run`).expect(202);
    expect(started.body).toMatchObject({ status: 'running', trigger: 'manual', finished_utc: null, created: 0 });
    const follow = new URL(started.headers.location).pathname;
    expect(follow).toBe(`${ns}/imports/${id}/runs/${started.body.id as number}`);
    // Until the run has reached the source (each look a round trip to it, never a timed wait)…
    for (let looks = 0; feed.requests.length === requestsBefore; looks++) {
      expect((await a.http.get(follow).set('Authorization', admin.auth).expect(200)).body.status).toBe('running');
      expect(looks).toBeLessThan(100_000);
    }
    // …a second run, through either instance, waiting or not, is refused.
    expect((await api(b, 'post', `/imports/${id}/run`).expect(409)).body.code).toBe('rest-import-running');
    expect((await api(a, 'post', `/imports/${id}/run?wait=true`).expect(409)).body.code).toBe('rest-import-running');
    feed.release();
    let run = started.body as RunBody;
    for (let looks = 0; run.status === 'running'; looks++) {
      run = (await a.http.get(follow).set('Authorization', admin.auth).expect(200)).body as RunBody;
      expect(looks).toBeLessThan(100_000);
    }
    expect(run).toMatchObject({ id: started.body.id, status: 'succeeded', created: 1 });
    expect(run.finished_utc >= run.started_utc).toBe(true);
  });

  it('records a source that does not answer in time, or sends more than IMPORTS_MAX_MB, as a failed run', async () => {
    const limits = { ...env, IMPORTS_FETCH_TIMEOUT_SECONDS: '1', IMPORTS_MAX_MB: '1' };
    const limited = await createTestApp({ database: a.database, env: limits });
    try {
      const create = async (url: string) =>
        (await api(limited, 'post', '/imports').send({ kind: 'ical', url }).expect(201)).body.id as number;
      const run = async (id: number) =>
        (await api(limited, 'post', `/imports/${id}/run?wait=true`).expect(200)).body as RunBody;
      // A source that never answers: the timeout is what ends the run, however slow this machine is.
      feed.holding = true;
      const silent = await run(await create(`${feed.url}?silent`));
      feed.release();
      expect(silent).toMatchObject({ status: 'failed', created: 0 });
      expect(silent.failed).toEqual([{ id: '', reason: expect.stringContaining('did not answer within 1 s') }]);
      feed.body = `${feedOf({ 'big@sub': { summary: 'Too big', day: '0601' } })}X-PAD:${'x'.repeat(1_100_000)}\r\n`;
      const big = await run(await create(`${feed.url}?big`));
      expect(big).toMatchObject({ status: 'failed', created: 0 });
      expect(big.failed).toEqual([{ id: '', reason: expect.stringContaining(`more than ${1024 * 1024} bytes`) }]);
      expect(await eventsTitled('Too big')).toEqual([]);
    } finally {
      feed.release();
      await limited.close();
    }
  });

  it('marks a run left running by an instance that died as failed, when the next run takes the subscription', async () => {
    feed.body = feedOf({ 'fair@sub': { summary: 'Book fair', day: '0610' } });
    const id = (
      await api(a, 'post', '/imports')
        .send({ kind: 'ical', url: `${feed.url}?fair` })
        .expect(201)
    ).body.id as number;
    // What a dead instance leaves: its run's row, `running`, and a lease that has run out.
    await a.dataSource.manager.insert(ImportRunEntity, {
      subscriptionId: id,
      trigger: 'schedule',
      status: 'running',
      startedUtc: '2030-01-01 00:00:00',
      finishedUtc: null,
      report: '{}',
    });
    const next = await runNow(id);
    expect(next).toMatchObject({ status: 'succeeded', created: 1 });
    const runs = (await api(a, 'get', `/imports/${id}/runs`).expect(200)).body.runs as RunBody[];
    expect(runs.map((r) => [r.id === next.id, r.status])).toEqual([
      [true, 'succeeded'],
      [false, 'failed'],
    ]);
    expect(runs[1].finished_utc).toBe(next.started_utc);
    expect(runs[1].failed).toEqual([{ id: '', reason: expect.stringContaining('stopped before it finished') }]);
  });

  it('runs each due subscription once among two instances, and not again before its interval', async () => {
    feed.body = feedOf({ 'market@sub': { summary: 'Night market', day: '0520' } });
    const id = (
      await api(a, 'post', '/imports').send({ kind: 'ical', url: `${feed.url}?market`, interval_minutes: 30 })
    ).body.id as number;
    const rounds = await Promise.all([a, b, a, b].map((app) => app.app.get(ImportScheduler).runRound()));
    const runs = (await api(a, 'get', `/imports/${id}/runs`).expect(200)).body.runs as RunBody[];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'schedule', status: 'succeeded', created: 1 });
    expect(rounds.filter((r) => typeof r === 'number' && r > 0)).toHaveLength(1);
    await a.app.get(ImportScheduler).runRound();
    await b.app.get(ImportScheduler).runRound();
    expect((await api(a, 'get', `/imports/${id}/runs`).expect(200)).body.runs).toHaveLength(1);
    const next = (await api(a, 'get', `/imports/${id}`).expect(200)).body.next_run_utc as string;
    expect(
      Date.parse(`${next.replace(' ', 'T')}Z`) - Date.parse(`${runs[0].started_utc.replace(' ', 'T')}Z`),
    ).toBeGreaterThan(29 * 60_000);
  });
});

/** Whether the current whole second is not yet past `sqlUtc` (times in the database have whole seconds). */
function stillSecondOf(sqlUtc: string): boolean {
  return new Date().toISOString().slice(0, 19).replace('T', ' ') <= sqlUtc;
}
