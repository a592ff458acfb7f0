import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { ApplicationPasswordsService } from '../../src/auth/application-passwords.service';
import { runCli } from '../../src/cli/run-cli';
import { CapturedStream } from '../support/captured-stream';
import { SharedRedis } from '../../src/common/redis/shared-redis';
import { FreezingProxy } from '../support/freezing-proxy';
import { FuturePostsPublisher } from '../../src/core/posts/future-posts.publisher';
import { DatabaseClock } from '../../src/database/database-clock';
import { Leases } from '../../src/database/leases';
import { dropRedisKeys, REDIS_URL } from '../support/redis-keys';
import { createTestApp, SteppingClock, type TestApp } from '../support/create-test-app';
import { insertPost } from '../support/posts';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { basicAuth, createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';

/**
 * Two instances on one database and one Redis (the shared Redis on 127.0.0.1:6379, under a prefix of
 * this run): one brute-force limit for both, a revoked password refused by the other instance at once,
 * one scheduled-post publisher. And one instance whose Redis is unreachable: it serves, limits locally
 * and says so.
 */
describe('shared state across instances (Redis)', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let editor: TestUser;
  const prefix = `test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const clocks = [new SteppingClock(), new SteppingClock()];

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = {
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      AUTH_FAILURE_LIMIT: '3',
      FUTURE_POSTS_INTERVAL_SECONDS: '3600',
    };
    a = await createTestApp({ database, env, clock: clocks[0] });
    b = await createTestApp({ database, env, clock: clocks[1] });
    editor = await createUser(a, 'editor');
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.drop();
    await dropRedisKeys(prefix);
  });

  it('counts failed logins spread over both instances against one limit', async () => {
    const wrong = basicAuth(editor.login, 'not the password 1234');
    const statuses: number[] = [];
    for (const t of [a, b, a, b]) {
      statuses.push((await t.http.get(`${ns}/events`).set('Authorization', wrong).set('X-Forwarded-For', '')).status);
    }
    // Three misses (A, B, A) lock the pair; the fourth attempt, on B, is refused without a check.
    expect(statuses).toEqual([401, 401, 401, 429]);
    const onA = await a.http.get(`${ns}/events`).set('Authorization', wrong);
    expect(onA.status).toBe(429);
    expect(Number(onA.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses on the other instance at once a password revoked on one', async () => {
    const user = await createUser(a, 'editor');
    // B verifies it (and caches the verification).
    await b.http.get(`${ns}/events`).set('Authorization', user.auth).expect(200);
    await b.http.get(`${ns}/events`).set('Authorization', user.auth).expect(200);
    await a.app.get(ApplicationPasswordsService).revoke(user.id, user.passwordId);
    await b.http.get(`${ns}/events`).set('Authorization', user.auth).expect(401);
  });

  it('refuses at once on every instance a password revoked through the CLI (another process)', async () => {
    const user = await createUser(a, 'author');
    await a.http.get(`${ns}/events`).set('Authorization', user.auth).expect(200);
    await b.http.get(`${ns}/events`).set('Authorization', user.auth).expect(200);
    const code = await runCli(['node', 'cli', 'password:revoke', user.login, user.passwordId, '--yes'], {
      stdout: new CapturedStream().asWriteStream(),
      stderr: new CapturedStream().asWriteStream(),
      overrides: { DATABASE_URL: database.url, LOG_LEVEL: 'silent', REDIS_URL, REDIS_KEY_PREFIX: prefix },
    });
    expect(code).toBe(0);
    await a.http.get(`${ns}/events`).set('Authorization', user.auth).expect(401);
    await b.http.get(`${ns}/events`).set('Authorization', user.auth).expect(401);
  });

  it('shows a write through one instance in the other’s lists and totals at once', async () => {
    const window = 'start_date=2031-01-01&end_date=2031-12-31';
    const writer = await createUser(a, 'editor');
    const before = await b.http.get(`${ns}/events?${window}`).expect(200);
    await a.http
      .post(`${ns}/events`)
      .set('Authorization', writer.auth)
      .send({ title: 'Shared', start_date: '2031-03-01 10:00', end_date: '2031-03-01 11:00' })
      .expect(201);
    const after = await b.http.get(`${ns}/events?${window}`).expect(200);
    expect(Number(after.headers['x-wp-total'])).toBe(Number(before.headers['x-wp-total']) + 1);
    expect((after.body as { events: { title: string }[] }).events.map((e) => e.title)).toContain('Shared');
  });

  it('publishes scheduled posts on one instance only, and on the other once the first stops renewing', async () => {
    const due = await insertPost(a, { status: 'future', dateUtc: '2020-01-01 10:00:00' });
    const [publisherA, publisherB] = [a, b].map((t) => t.app.get(FuturePostsPublisher));
    expect(await publisherA.runScheduled()).toEqual([due.id]);
    expect(await publisherB.runScheduled()).toBeNull();
    expect(await publisherA.runScheduled()).toEqual([]);
    // A stops (its lease is not renewed): once the lease has run out, B takes over.
    clocks[1].advance(2 * 3600 * 1000 + 10_000);
    expect(await publisherB.runScheduled()).toEqual([]);
    expect(await publisherA.runScheduled()).toBeNull();
  });
});

/**
 * Two instances on one database whose process clocks disagree: B runs 90 s fast. Who holds the publisher's
 * lease, and which scheduled posts are due, is read from the database's clock, the one clock they share.
 */
describe('instances whose clocks disagree', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const fast = new SteppingClock();

  beforeAll(async () => {
    database = await createTestDatabase();
    // Two rounds of 30 s plus 5 s: a lease that a clock 90 s ahead would see as long run out.
    const env = { FUTURE_POSTS_INTERVAL_SECONDS: '30' };
    a = await createTestApp({ database, env });
    fast.advance(90_000);
    b = await createTestApp({ database, env, clock: fast, realDatabaseClock: true });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await database.drop();
  });

  it('leaves the lease with its holder and publishes nothing before it is due by the database’s clock', async () => {
    const [publisherA, publisherB] = [a, b].map((t) => t.app.get(FuturePostsPublisher));
    expect(await publisherA.runScheduled()).toEqual([]);
    // A renews every round; B, 90 s ahead, must not take the lease from a holder that is alive.
    expect(await publisherB.runScheduled()).toBeNull();
    const dbNow = await a.app.get(DatabaseClock).nowSqlUtc();
    const dueSoon = await insertPost(a, { status: 'future', dateUtc: DatabaseClock.plus(dbNow, 40_000) });
    // A stops; its lease has run out (by the database's clock), and B takes over.
    await a.dataSource.query("UPDATE leases SET expires_utc = '2000-01-01 00:00:00' WHERE name = 'future-posts'");
    expect(await publisherB.runScheduled()).toEqual([]);
    const [row] = await a.dataSource.query<{ status: string }[]>('SELECT status FROM posts WHERE id = ?', [dueSoon.id]);
    expect(row.status).toBe('future');
    // And once it is due by the database's clock, whoever holds the lease publishes it.
    await a.dataSource.query('UPDATE posts SET date_utc = ? WHERE id = ?', [
      DatabaseClock.plus(dbNow, -1_000),
      dueSoon.id,
    ]);
    expect(await publisherB.runScheduled()).toEqual([dueSoon.id]);
  });

  it("gives a module's own lease, made on first use, to one instance at a time", async () => {
    const [leasesA, leasesB] = [a, b].map((t) => t.app.get(Leases));
    // Both ask at once for a lease no migration made: one row, one holder.
    const first = await Promise.all([
      leasesA.acquire('reports:nightly', 60_000),
      leasesB.acquire('reports:nightly', 60_000),
    ]);
    expect(first.filter(Boolean)).toHaveLength(1);
    const [{ n }] = await a.dataSource.query<{ n: number | string }[]>(
      "SELECT COUNT(*) AS n FROM leases WHERE name = 'reports:nightly'",
    );
    expect(Number(n)).toBe(1);
    const holder = first[0] ? leasesA : leasesB;
    const other = first[0] ? leasesB : leasesA;
    expect(await holder.acquire('reports:nightly', 60_000)).toBe(true);
    expect(await other.acquire('reports:nightly', 60_000)).toBe(false);
    await expect(holder.acquire('x'.repeat(65), 1000)).rejects.toThrow(/1 to 64 characters/);
  });
});

describe('an instance whose Redis is unreachable', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Nothing listens on port 1: connections are refused at once.
    t = await createTestApp({
      env: { REDIS_URL: 'redis://127.0.0.1:1', AUTH_FAILURE_LIMIT: '2', METRICS_OPEN: 'true' },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps serving, limits logins per instance, and says it is degraded', async () => {
    const editor = await createUser(t, 'editor');
    await t.http.get(`${ns}/events`).set('Authorization', editor.auth).expect(200);
    const wrong = basicAuth(editor.login, 'not the password 1234');
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.http.get(`${ns}/events`).set('Authorization', wrong)).status);
    expect(statuses).toEqual([401, 401, 429]);
    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body).toMatchObject({ status: 'degraded', redis: { status: 'down' } });
    const metrics = await t.http.get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^redis_up 0$/m);
  });
});

/**
 * Two instances behind one reverse proxy that appends the address it saw to the client's own
 * `X-Forwarded-For` (stock nginx: `$proxy_add_x_forwarded_for`). Supertest connects from 127.0.0.1, where
 * the proxy would be. A client that rotates forged addresses in its header is still one client.
 */
describe.each([
  ['a hop count', '1'],
  ['the proxies’ subnets', 'loopback, 10.0.0.0/8'],
])('behind a proxy, TRUST_PROXY as %s', (_form, trustProxy) => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const prefix = `test-${process.pid}-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix, AUTH_FAILURE_LIMIT: '3', TRUST_PROXY: trustProxy };
    a = await createTestApp({ database, env });
    b = await createTestApp({ database, env });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.drop();
    await dropRedisKeys(prefix);
  });

  it('limits a client that forges a new X-Forwarded-For on every guess', async () => {
    const editor = await createUser(a, 'editor');
    const wrong = basicAuth(editor.login, 'not the password 1234');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const t = i % 2 === 0 ? a : b;
      const forged = `203.0.113.${i + 1}`;
      const res = await t.http
        .get(`${ns}/events`)
        .set('Authorization', wrong)
        .set('X-Forwarded-For', `${forged}, 198.51.100.7`);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
    // Another client behind the same proxy is not locked out by it.
    await a.http
      .get(`${ns}/events`)
      .set('Authorization', editor.auth)
      .set('X-Forwarded-For', '198.51.100.8')
      .expect(200);
  });
});

describe('an instance whose Redis freezes (connections open, nothing answered)', () => {
  let t: TestApp;
  let proxy: FreezingProxy;
  const prefix = `test-${process.pid}-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    proxy = new FreezingProxy('127.0.0.1', 6379);
    const port = await proxy.start();
    t = await createTestApp({
      env: {
        REDIS_URL: `redis://127.0.0.1:${port}`,
        REDIS_KEY_PREFIX: prefix,
        AUTH_FAILURE_LIMIT: '2',
        METRICS_OPEN: 'true',
        // Long enough that a busy machine does not call a healthy Redis frozen.
        REDIS_COMMAND_TIMEOUT_MS: '2000',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await proxy.stop();
    await dropRedisKeys(prefix);
  });

  const redisStatus = async () =>
    ((await t.http.get('/health/ready').expect(200)).body as { redis: { status: string } }).redis.status;

  it('keeps answering signed-in callers, says it is degraded, and recovers when Redis answers again', async () => {
    const editor = await createUser(t, 'editor');
    await t.http.get(`${ns}/events`).set('Authorization', editor.auth).expect(200);
    expect(await redisStatus()).toBe('up');
    proxy.freeze();
    // Neither waits for Redis beyond a command's deadline.
    await t.http.get(`${ns}/events`).set('Authorization', editor.auth).expect(200);
    // The heartbeat's next round, asked for now: its PING misses the deadline and the connection goes.
    await t.app.get(SharedRedis).probe();
    expect(await redisStatus()).toBe('down');
    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body).toMatchObject({ status: 'degraded', redis: { status: 'down' } });
    expect((await t.http.get('/metrics').expect(200)).text).toMatch(/^redis_up 0$/m);
    await t.http.get(`${ns}/events`).set('Authorization', editor.auth).expect(200);
    // Limits still hold, per instance.
    const wrong = basicAuth(editor.login, 'not the password 1234');
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.http.get(`${ns}/events`).set('Authorization', wrong)).status);
    expect(statuses).toEqual([401, 401, 429]);
    proxy.thaw();
    // ioredis reconnects by itself; ready once the server has answered its ready check.
    await t.app.get(SharedRedis).ready();
    expect(await redisStatus()).toBe('up');
    await t.http.get(`${ns}/events`).set('Authorization', editor.auth).expect(200);
  });
});
