import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { MigrationCommands } from '../../src/database/migration-commands';
import { allMigrations } from '../../src/database/module-migrations';
import { CALENDAR_MODULES } from '../../src/app.module';
import { StartupSummary, type StartupSummaryFields } from '../../src/operations/startup-summary';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { ChangeLogJanitor } from '../../src/core/changes/change-log.janitor';
import { FuturePostsPublisher } from '../../src/core/posts/future-posts.publisher';
import { FreezingProxy } from '../support/freezing-proxy';
import { holdWrites } from '../support/hold-writes';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { basicAuth, createUser } from '../support/users';

const ns = '/cal/events/v1';
const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const ADMIN = { CAL_ADMIN_LOGIN: 'Boss', CAL_ADMIN_PASSWORD: 'first-admin-password' };
const quietProgress = () => ({ advance: () => undefined, stop: () => undefined });

/** Log lines as parsed JSON, from a capture of the service's log stream. */
function logCapture() {
  const raw: string[] = [];
  return {
    destination: { write: (line: string) => raw.push(line) },
    text: () => raw.join(''),
    entries: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>),
    clear: () => (raw.length = 0),
  };
}

async function summaryOf(t: TestApp, log: ReturnType<typeof logCapture>): Promise<StartupSummaryFields> {
  await t.app.get(StartupSummary).log({ host: '127.0.0.1', port: 3000 });
  const line = log.entries().find((e) => e.context === 'Startup');
  expect(line).toBeDefined();
  expect(String(line?.msg)).toContain(`calendar ${version} listening on 127.0.0.1:3000`);
  return line?.startup as StartupSummaryFields;
}

describe('operator view: start-up summary, admin bootstrap', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('says what started, where, on which database, which migrations ran and what became of the admin', async () => {
    const log = logCapture();
    const first = await createTestApp({
      database,
      env: { ...ADMIN, LOG_LEVEL: 'info' },
      logDestination: log.destination,
    });
    try {
      const fields = await summaryOf(first, log);
      expect(fields).toMatchObject({
        version,
        node: process.version,
        listen: { host: '127.0.0.1', port: 3000 },
        admin: 'created',
      });
      expect(fields.database.kind).toBe(database.kind);
      if (fields.database.kind === 'mysql') {
        expect(fields.database).toMatchObject({ host: '127.0.0.1', port: 3306 });
        expect(JSON.stringify(fields.database)).not.toMatch(/password|@/);
      }
      expect(fields.migrations.applied).toBeGreaterThanOrEqual(5);
      expect(fields.migrations.applied_now).toHaveLength(fields.migrations.applied);
      expect(fields.migrations.pending).toBe(0);
      // No framework chatter at info: the summary is the news.
      expect(log.entries().filter((e) => e.context === 'InstanceLoader' || e.context === 'RouterExplorer')).toEqual([]);
      expect(log.text()).not.toContain(ADMIN.CAL_ADMIN_PASSWORD);
      await first.http
        .get(`${ns}/events`)
        .set('Authorization', basicAuth('boss', ADMIN.CAL_ADMIN_PASSWORD))
        .expect(200);
    } finally {
      await first.close();
    }

    const again = logCapture();
    const second = await createTestApp({
      database,
      env: { ...ADMIN, LOG_LEVEL: 'info' },
      logDestination: again.destination,
    });
    try {
      const fields = await summaryOf(second, again);
      expect(fields).toMatchObject({ admin: 'exists', migrations: { applied_now: [], pending: 0 } });
    } finally {
      await second.close();
    }
  });

  it("replaces the bootstrap password when CAL_ADMIN_PASSWORD changed, and keeps the admin's other passwords", async () => {
    const log = logCapture();
    const changed = { ...ADMIN, CAL_ADMIN_PASSWORD: 'second-admin-password' };
    const t = await createTestApp({
      database,
      env: { ...changed, LOG_LEVEL: 'info' },
      logDestination: log.destination,
    });
    try {
      expect((await summaryOf(t, log)).admin).toBe('password changed');
      await t.http.get(`${ns}/events`).set('Authorization', basicAuth('boss', changed.CAL_ADMIN_PASSWORD)).expect(200);
      await t.http.get(`${ns}/events`).set('Authorization', basicAuth('boss', ADMIN.CAL_ADMIN_PASSWORD)).expect(401);
      expect(log.text()).not.toContain(changed.CAL_ADMIN_PASSWORD);
    } finally {
      await t.close();
    }
  });

  it.each([
    ['1', '1 hop', false],
    ['loopback,10.0.0.0/8', 'loopback, 10.0.0.0/8', false],
    ['true', 'every hop', true],
  ])(
    'says whose forwarded addresses it believes (TRUST_PROXY=%s), and warns when it is every hop',
    async (raw, said, warns) => {
      const log = logCapture();
      const t = await createTestApp({
        database,
        env: { TRUST_PROXY: raw, LOG_LEVEL: 'info' },
        logDestination: log.destination,
      });
      try {
        expect((await summaryOf(t, log)).trust_proxy).toBe(said);
        const warnings = log.entries().filter((e) => e.level === 40 && String(e.msg).includes('TRUST_PROXY=true'));
        expect(warnings).toHaveLength(warns ? 1 : 0);
      } finally {
        await t.close();
      }
    },
  );
});

describe('operator view: /health and /health/ready', () => {
  it('answers liveness without the database, and readiness with the schema state', async () => {
    const t = await createTestApp();
    try {
      const live = await t.http.get('/health').expect(200);
      expect(live.body).toEqual({ status: 'ok', version, uptime_seconds: expect.any(Number) });
      const ready = await t.http.get('/health/ready').expect(200);
      expect(ready.body).toMatchObject({
        status: 'ok',
        version,
        database: { status: 'up' },
        migrations: { pending: [] },
      });

      // A migration reverted behind the service's back: not ready, and says which; ready again once applied.
      const commands = new MigrationCommands(t.database.url, allMigrations(CALENDAR_MODULES));
      try {
        const [reverted] = await commands.revert(1, quietProgress);
        const notReady = await t.http.get('/health/ready').expect(503);
        expect(notReady.body.data).toMatchObject({ version, migrations: { pending: [reverted] } });
        await t.http.get('/health').expect(200);
        await commands.run(quietProgress);
      } finally {
        await commands.close();
      }
      await t.http.get('/health/ready').expect(200);
    } finally {
      await t.close();
    }
  });

  it('goes not-ready while the database cannot be reached (or written), and ready again when it returns', async () => {
    const database = await createTestDatabase();
    if (database.kind === 'sqlite') {
      // An embedded file cannot go away; its writer held elsewhere is what an outage looks like here.
      const t = await createTestApp({ database, env: { DB_QUERY_TIMEOUT_SECONDS: '1' } });
      try {
        const held = await holdWrites(t);
        const down = await t.http.get('/health/ready');
        held.release();
        await held.done;
        expect(down.status).toBe(503);
        expect(down.body.data).toMatchObject({ version, database: { status: 'down', failed: 'write' } });
        await t.http.get('/health/ready').expect(200);
      } finally {
        await t.close();
        await database.drop();
      }
      return;
    }
    const target = new URL(database.url);
    const proxy = new FreezingProxy(target.hostname, Number(target.port || 3306));
    const viaProxy = new URL(database.url);
    viaProxy.port = String(await proxy.start());
    const t = await createTestApp({ database: { ...database, url: viaProxy.toString() } });
    try {
      await t.http.get('/health/ready').expect(200);
      proxy.cut();
      const down = await t.http.get('/health/ready').expect(503);
      expect(down.body.data).toMatchObject({ version, database: { status: 'down', failed: 'read' } });
      await t.http.get('/health').expect(200);
      proxy.restore();
      // The pool replaces its dropped connections on the next request; ready answers 200 again.
      let status = 503;
      for (let attempt = 0; attempt < 20 && status !== 200; attempt++)
        status = (await t.http.get('/health/ready')).status;
      expect(status).toBe(200);
    } finally {
      await t.close();
      await proxy.stop();
      await database.drop();
    }
  });
});

/** Prometheus text exposition: every line a comment (HELP/TYPE) or `name{labels} value`. */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const match =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})?) (-?[0-9.e+-]+|NaN|Nan|\+Inf|-Inf)$/.exec(
        line,
      );
    if (!match) throw new Error(`not Prometheus text format: ${line}`);
    samples.set(match[1], Number(match[2]));
  }
  return samples;
}

describe('operator view: /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: 'scrape-token-0123456789' } });
  });
  afterAll(async () => {
    await t.close();
  });
  const scrape = async () => {
    const res = await t.http.get('/metrics').set('Authorization', 'Bearer scrape-token-0123456789').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(res.text);
  };
  const eventsOk = 'http_requests_total{method="GET",route="/cal/events/v1/events",status="200"}';

  it('is closed without METRICS_TOKEN, unless METRICS_OPEN says it may be open', async () => {
    const closed = await createTestApp();
    try {
      const res = await closed.http.get('/metrics').expect(403);
      expect(res.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
      expect(res.body.message).toContain('METRICS_TOKEN');
      expect(res.text).not.toContain('http_requests_total');
    } finally {
      await closed.close();
    }
    const open = await createTestApp({ env: { METRICS_OPEN: 'true' } });
    try {
      expect((await open.http.get('/metrics').expect(200)).text).toContain('http_requests_total');
    } finally {
      await open.close();
    }
  });

  it('wants the bearer token when METRICS_TOKEN is set', async () => {
    await t.http.get('/metrics').expect(401);
    await t.http.get('/metrics').set('Authorization', 'Bearer wrong-token-0123456789').expect(401);
  });

  it('parses, and counts a request under its route template, with its latency', async () => {
    const before = await scrape();
    await t.http.get(`${ns}/events`).expect(200);
    const after = await scrape();
    expect((after.get(eventsOk) ?? 0) - (before.get(eventsOk) ?? 0)).toBe(1);
    expect(
      after.get('http_request_duration_seconds_count{method="GET",route="/cal/events/v1/events",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect([...after.keys()].some((k) => k.startsWith('nodejs_eventloop_lag_seconds'))).toBe(true);
    expect(after.get('db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    // The scrape itself, answered before the router, counts as /metrics, not as an unmatched route.
    expect(after.get('http_requests_total{method="GET",route="/metrics",status="200"}')).toBeGreaterThanOrEqual(1);
    expect([...after.keys()].filter((k) => k.includes('route="unmatched"') && k.includes('status="200"'))).toEqual([]);
  });

  it('counts login failures and lockouts', async () => {
    const before = await scrape();
    await t.http.get(`${ns}/events`).set('Authorization', basicAuth('nobody', 'wrong')).expect(401);
    const after = await scrape();
    expect((after.get('auth_login_failures_total') ?? 0) - (before.get('auth_login_failures_total') ?? 0)).toBe(1);
    expect(after.has('auth_login_lockouts_total')).toBe(true);
  });
});

describe('operator view: secrets never reach the logs', () => {
  it('redacts Authorization headers, application passwords, and password query and body fields', async () => {
    const log = logCapture();
    const t = await createTestApp({ env: { LOG_LEVEL: 'trace' }, logDestination: log.destination });
    try {
      const editor = await createUser(t, 'editor');
      const event = await t.http
        .post(`${ns}/events`)
        .set('Authorization', editor.auth)
        .send({
          title: 'Locked',
          start_date: '2031-01-01 10:00',
          end_date: '2031-01-01 11:00',
          password: 'body-secret-1',
        })
        .expect(201);
      // A wrong event password: refused, and its value kept out of the access and error logs.
      await t.http.get(`${ns}/events/${event.body.id}?password=query-secret-2`).expect(403);
      await t.http.get(`${ns}/events/${event.body.id}?password[]=query-secret-3`).expect(400);
      await t.http
        .post(`${ns}/events`)
        .set('Authorization', editor.auth)
        .send({ title: 3, password: 'body-secret-4' })
        .expect(400);
      await t.http.get(`${ns}/events`).set('Authorization', basicAuth(editor.login, 'wrong-secret-5')).expect(401);
      const logged = log.text();
      expect(logged.length).toBeGreaterThan(0);
      for (const secret of [
        'body-secret-1',
        'query-secret-2',
        'query-secret-3',
        'body-secret-4',
        'wrong-secret-5',
        editor.password,
      ]) {
        expect(logged).not.toContain(secret);
      }
      expect(logged).not.toContain(editor.auth.slice('Basic '.length));
      expect(logged).toContain('[redacted]');
    } finally {
      await t.close();
    }
  });
});

describe('operator view: background tasks', () => {
  it('logs a failed round with its task, counts it, and shows each task’s last success', async () => {
    const log = logCapture();
    const t = await createTestApp({
      env: { LOG_LEVEL: 'info', METRICS_OPEN: 'true' },
      logDestination: log.destination,
    });
    const metrics = async () => parseExposition((await t.http.get('/metrics').expect(200)).text);
    const rounds: [string, () => Promise<unknown>][] = [
      ['future-posts', () => t.app.get(FuturePostsPublisher).runRound()],
      ['change-log-janitor', () => t.app.get(ChangeLogJanitor).runRound()],
    ];
    try {
      const before = await metrics();
      for (const [task] of rounds) {
        expect(before.get(`background_task_last_success_timestamp_seconds{task="${task}"}`)).toBe(0);
        expect(before.get(`background_task_failures_total{task="${task}"}`)).toBe(0);
      }
      // Both tasks' first statements read a table that is not there for a moment.
      await t.dataSource.query('ALTER TABLE leases RENAME TO leases_away');
      await t.dataSource.query('ALTER TABLE change_log RENAME TO change_log_away');
      try {
        for (const [, round] of rounds) expect(await round()).toBeUndefined();
      } finally {
        await t.dataSource.query('ALTER TABLE leases_away RENAME TO leases');
        await t.dataSource.query('ALTER TABLE change_log_away RENAME TO change_log');
      }
      const failed = await metrics();
      for (const [task] of rounds) {
        expect(failed.get(`background_task_failures_total{task="${task}"}`)).toBe(1);
        expect(failed.get(`background_task_last_success_timestamp_seconds{task="${task}"}`)).toBe(0);
        const lines = log.entries().filter((e) => e.level === 50 && e.task === task);
        expect(lines).toHaveLength(1);
        expect(String(lines[0].msg)).toMatch(new RegExp(`background task ${task} failed: .*(leases|change_log)`));
      }
      for (const [, round] of rounds) expect(await round()).not.toBeUndefined();
      const after = await metrics();
      for (const [task] of rounds) {
        const at = after.get(`background_task_last_success_timestamp_seconds{task="${task}"}`) ?? 0;
        expect(Math.abs(at - Date.now() / 1000)).toBeLessThan(3600);
        expect(after.get(`background_task_failures_total{task="${task}"}`)).toBe(1);
      }
    } finally {
      await t.close();
    }
  });
});
