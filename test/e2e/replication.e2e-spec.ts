import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResponseCache } from '../../src/common/http/response-cache/response-cache';
import { ReplicaHealth } from '../../src/database/replica-health';
import { dropRedisKeys, REDIS_URL } from '../support/redis-keys';
import { createTestApp, SteppingClock, type TestApp } from '../support/create-test-app';
import { FreezingProxy } from '../support/freezing-proxy';
import { startReplicatedMariaDb, type ReplicatedMariaDb } from '../support/replicated-mariadb';
import { basicAuth, createUser, type TestUser } from '../support/users';
import { insertPost } from '../support/posts';
import { ApplicationPasswordsService } from '../../src/auth/application-passwords.service';
import { FuturePostsPublisher } from '../../src/core/posts/future-posts.publisher';

const ns = '/cal/events/v1';
/** Supertest listens on a new port per request; cached answers are per origin, so reads name one. */
const HOST = 'calendar.test';

/**
 * Two instances on a MariaDB primary and a replica with real binlog replication (started by the test on
 * its own ports) and Redis: reads land on the replica; a writer reads its own writes from the primary
 * even while replication is paused; everyone else sees them once the replica has caught up.
 */
describe('read replicas (DATABASE_READ_URLS)', () => {
  let servers: ReplicatedMariaDb;
  let a: TestApp;
  let b: TestApp;
  let c: TestApp;
  let editor: TestUser;
  const clocks = { a: new SteppingClock(), b: new SteppingClock() };
  /** The editor's read-your-writes mark in Redis: the primary's time when their last write ended. */
  const latestWriteMark = async (): Promise<string> => {
    const redis = new Redis(REDIS_URL);
    try {
      return (await redis.get(`${prefix}:wrote:${editor.id}`)) ?? '';
    } finally {
      await redis.quit();
    }
  };
  /** Statements on the primary that are updating `write_sequence` now (with its row held: waiting for it). */
  const waitingForLocks = async (): Promise<number> => {
    const [[{ n }]] = (await servers.primary.query(
      "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE 'UPDATE write_sequence%'",
    )) as unknown as [[{ n: number | string }]];
    return Number(n);
  };
  /** Moves both instances' time past READ_YOUR_WRITES_SECONDS (1). */
  const pastMinimumWindow = () => {
    clocks.a.advance(2000);
    clocks.b.advance(2000);
  };
  /**
   * Until the instance's own check finds the replica current. Each instance checks once a second; one
   * started while the replica was still applying the migrations reads the primary until its next check,
   * and a check may read a beat the replica has not applied yet: each round lets it catch up first.
   */
  const replicaInUse = async (instance: TestApp): Promise<void> => {
    const health = instance.app.get(ReplicaHealth);
    for (let rounds = 0; !(await health.check()); rounds++) {
      expect(rounds).toBeLessThan(20);
      await servers.caughtUp();
    }
  };
  const prefix = `test-${process.pid}-${randomBytes(4).toString('hex')}`;
  // Named like a live temporary table of the shared server on 3306, which keeps its own in /tmp.
  const sharedTemporaryTable = join(tmpdir(), `#sql-temptable-${process.pid.toString(16)}-1-1.MAI`);

  /** A third instance whose replica connection runs through a proxy the test can cut or freeze. */
  async function instanceBehindReplicaProxy(env: Record<string, string> = {}) {
    const replica = new URL(servers.replicaUrl);
    const proxy = new FreezingProxy(replica.hostname, Number(replica.port));
    const viaProxy = new URL(servers.replicaUrl);
    viaProxy.port = String(await proxy.start());
    const database = { url: servers.primaryUrl, kind: 'mysql' as const, drop: () => Promise.resolve() };
    const e = await createTestApp({
      database,
      env: {
        DATABASE_READ_URLS: viaProxy.toString(),
        REPLICA_MAX_LAG_SECONDS: '3600',
        RESPONSE_CACHE_MB: '0',
        ...env,
      },
    });
    return { e, proxy };
  }

  beforeAll(async () => {
    writeFileSync(sharedTemporaryTable, '');
    servers = await startReplicatedMariaDb();
    const database = { url: servers.primaryUrl, kind: 'mysql' as const, drop: () => Promise.resolve() };
    const env = {
      DATABASE_READ_URLS: servers.replicaUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      FUTURE_POSTS_INTERVAL_SECONDS: '3600',
      // A and B read the replica however far it lags (the lag tests need a lagging replica in use); C
      // leaves a replica more than a second behind.
      REPLICA_MAX_LAG_SECONDS: '3600',
      READ_YOUR_WRITES_SECONDS: '1',
      METRICS_OPEN: 'true',
    };
    // Their own clocks step past READ_YOUR_WRITES_SECONDS on the test's word; the database's stays real.
    a = await createTestApp({ database, env, clock: clocks.a, realDatabaseClock: true });
    b = await createTestApp({ database, env, clock: clocks.b, realDatabaseClock: true });
    c = await createTestApp({ database, env: { ...env, REPLICA_MAX_LAG_SECONDS: '1' } });
    editor = await createUser(a, 'editor');
    await servers.caughtUp();
    for (const instance of [a, b, c]) await replicaInUse(instance);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await c?.close();
    await servers?.stop();
    await dropRedisKeys(prefix);
    rmSync(sharedTemporaryTable, { force: true });
  });

  it("leaves the shared /tmp's temporary tables alone when its own servers start", () => {
    // MariaDB deletes every #sql* file in its tmpdir as it starts: in /tmp, the shared server's.
    expect(existsSync(sharedTemporaryTable)).toBe(true);
  });

  it('answers anonymous reads from the replica', async () => {
    const before = await servers.selectsOnReplica();
    for (let i = 0; i < 5; i++) await b.http.get(`${ns}/events?per_page=5`).expect(200);
    expect((await servers.selectsOnReplica()) - before).toBeGreaterThanOrEqual(5);
  });

  it('shows a writer its own new event at once, through either instance, while replication is paused', async () => {
    await servers.pause();
    try {
      const created = await a.http
        .post(`${ns}/events`)
        .set('Authorization', editor.auth)
        .send({ title: 'Lagging', start_date: '2031-02-01 10:00', end_date: '2031-02-01 11:00' })
        .expect(201);
      const id = (created.body as { id: number }).id;
      await b.http.get(`${ns}/events/${id}`).set('Authorization', editor.auth).expect(200);
      // Longer ago than READ_YOUR_WRITES_SECONDS (1): the replica has still not applied it, so still the primary.
      pastMinimumWindow();
      await b.http.get(`${ns}/events/${id}`).set('Authorization', editor.auth).expect(200);
      const list = await b.http
        .get(`${ns}/events?start_date=2031-01-01&end_date=2031-12-31`)
        .set('Authorization', editor.auth);
      expect((list.body as { events: { id: number }[] }).events.map((e) => e.id)).toContain(id);
      // The public reads the replica, which has not applied the write yet.
      await b.http.get(`${ns}/events/${id}`).expect(404);
      await servers.resume();
      await servers.caughtUp();
      await b.http.get(`${ns}/events/${id}`).expect(200);
    } finally {
      await servers.resume();
    }
  });

  it('keeps the writer of a slow write on the primary: its wait counts from the commit, not the start', async () => {
    await servers.pause();
    try {
      // The content version's row, held on the primary: the create waits for it as its last statements run.
      await servers.primary.query('START TRANSACTION');
      await servers.primary.query('SELECT value FROM cal.write_sequence WHERE id = 1 FOR UPDATE');
      const creating = a.http
        .post(`${ns}/events`)
        .set('Authorization', editor.auth)
        .send({ title: 'Slow', start_date: '2031-06-01 10:00', end_date: '2031-06-01 11:00' })
        .then((res) => res);
      // Until the create waits for the row (each look a round trip to the primary, never a timed wait)…
      for (let looks = 0; (await waitingForLocks()) === 0; looks++) expect(looks).toBeLessThan(100_000);
      // …and for longer than READ_YOUR_WRITES_SECONDS counted from its start.
      pastMinimumWindow();
      await servers.primary.query('COMMIT');
      const created = await creating;
      expect(created.status).toBe(201);
      const id = (created.body as { id: number }).id;
      // Its writer reads it at once, on either instance; the paused replica has not got it.
      await b.http.get(`${ns}/events/${id}`).set('Authorization', editor.auth).expect(200);
      await a.http.get(`${ns}/events/${id}`).set('Authorization', editor.auth).expect(200);
      await b.http.get(`${ns}/events/${id}`).expect(404);
    } finally {
      await servers.primary.query('ROLLBACK').catch(() => undefined);
      await servers.resume();
    }
  });

  it('leaves a replica that falls behind REPLICA_MAX_LAG_SECONDS, and reads it again once it has caught up', async () => {
    const health = c.app.get(ReplicaHealth);
    await replicaInUse(c);
    await servers.pause();
    let id: number;
    let restoreBeat: (() => Promise<unknown>) | null = null;
    try {
      const created = await a.http
        .post(`${ns}/events`)
        .set('Authorization', editor.auth)
        .send({ title: 'Behind', start_date: '2031-03-01 10:00', end_date: '2031-03-01 11:00' })
        .expect(201);
      id = (created.body as { id: number }).id;
      // The paused replica's copy of the heartbeat, set back a minute as a replica stopped that long ago
      // would have it (root may write on the read-only replica): behind C's bound (1 s), within B's (1 h).
      // Kept so for the instances' own checks too, and put back before replication resumes.
      const [[{ beat }]] = (await servers.replica.query(
        'SELECT beat_utc AS beat FROM cal.replica_heartbeat WHERE id = 1',
      )) as unknown as [[{ beat: string }]];
      restoreBeat = () => servers.replica.query('UPDATE cal.replica_heartbeat SET beat_utc = ? WHERE id = 1', [beat]);
      await servers.replica.query(
        'UPDATE cal.replica_heartbeat SET beat_utc = DATE_SUB(UTC_TIMESTAMP(), INTERVAL 60 SECOND) WHERE id = 1',
      );
      // A check already under way (the instance's timer, or a read that asked for one) may have read the beat
      // before it was set back, and `check()` joins it: the one after it reads the beat as it is now.
      await health.check();
      expect(await health.check()).toBe(false);
      const ready = await c.http.get('/health/ready').expect(200);
      expect(ready.body).toMatchObject({ status: 'degraded', replicas: { status: 'behind', max_lag_seconds: 1 } });
      expect(ready.body.replicas.lag_seconds).toBeGreaterThan(1);
      expect((await c.http.get('/metrics').expect(200)).text).toMatch(/^db_replicas_in_use 0$/m);
      // C reads the primary: the public sees the new event there. B, whose bound is an hour, reads the replica.
      await c.http.get(`${ns}/events/${id}`).expect(200);
      await b.http.get(`${ns}/events/${id}`).expect(404);
    } finally {
      await restoreBeat?.();
      await servers.resume();
    }
    // The restored beat was written on the replica itself, ahead of the create it has still to apply (a real
    // replica's beat only ever arrives in commit order): so the create is applied before any check may pass.
    await servers.caughtUp();
    // Current again: each check's heartbeat applied before the next check reads it.
    await replicaInUse(c);
    const before = await servers.selectsOnReplica();
    await c.http.get(`${ns}/events/${id}`).expect(200);
    expect(await servers.selectsOnReplica()).toBeGreaterThan(before);
  });

  it('sends a writer back to the replica once it has applied the write, not before', async () => {
    const health = b.app.get(ReplicaHealth);
    const created = await a.http
      .post(`${ns}/events`)
      .set('Authorization', editor.auth)
      .send({ title: 'Applied', start_date: '2031-04-01 10:00', end_date: '2031-04-01 11:00' })
      .expect(201);
    const id = (created.body as { id: number }).id;
    pastMinimumWindow();
    // The write's end is marked once its answer has gone (the mark is "pending" until then).
    for (let looks = 0; ['', 'pending'].includes(await latestWriteMark()); looks++) expect(looks).toBeLessThan(10_000);
    // A heartbeat of a later second than the write's end, as the next second's would be, written now
    // rather than waited for, and applied by the replica.
    await servers.primary.query(
      'UPDATE cal.replica_heartbeat SET beat_utc = DATE_ADD(UTC_TIMESTAMP(), INTERVAL 1 SECOND) WHERE id = 1',
    );
    await servers.caughtUp();
    // Twice: the first may join a check that read the replica before it applied the beat.
    await health.check();
    await health.check();
    expect(health.appliedUtc! > (await latestWriteMark())).toBe(true);
    const before = await servers.selectsOnReplica();
    await b.http.get(`${ns}/events/${id}`).set('Authorization', editor.auth).expect(200);
    expect(await servers.selectsOnReplica()).toBeGreaterThan(before);
  });

  it('keeps cached answers exact: what was read during the lag is not served once the replica has caught up', async () => {
    const window = 'start_date=2032-01-01&end_date=2032-12-31';
    const first = await b.http.get(`${ns}/events?${window}`).set('Host', HOST).expect(200);
    // Cached, so that a stale answer would have something to be served from.
    await b.http.get(`${ns}/events?${window}`).set('Host', HOST).expect(200);
    await servers.pause();
    try {
      await a.http
        .post(`${ns}/events`)
        .set('Authorization', editor.auth)
        .send({ title: 'Replicated', start_date: '2032-02-01 10:00', end_date: '2032-02-01 11:00' })
        .expect(201);
      // Read (and cached) while the replica lags: still the old list, keyed by the replica's old version.
      const during = await b.http.get(`${ns}/events?${window}`).set('Host', HOST).expect(200);
      expect(during.headers['x-wp-total']).toBe(first.headers['x-wp-total']);
    } finally {
      await servers.resume();
    }
    await servers.caughtUp();
    const after = await b.http.get(`${ns}/events?${window}`).set('Host', HOST).expect(200);
    // The lists were served from the cache where they could be: the check is about cached answers.
    expect(b.app.get(ResponseCache).counts.hit).toBeGreaterThan(0);
    expect(Number(after.headers['x-wp-total'])).toBe(Number(first.headers['x-wp-total']) + 1);
  });

  it('shares one brute-force limit, revocations and the publisher between the instances', async () => {
    const wrong = basicAuth(editor.login, 'not the password 5678');
    const statuses: number[] = [];
    for (const t of [a, b, a, b, a, b, a, b, a, b, a]) {
      statuses.push((await t.http.get(`${ns}/events`).set('Authorization', wrong)).status);
    }
    // AUTH_FAILURE_LIMIT (10) misses over both instances, then the pair is locked on both.
    expect(statuses.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 401));
    expect(statuses[10]).toBe(429);

    const user = await createUser(a, 'author');
    await b.http.get(`${ns}/events`).set('Authorization', user.auth).expect(200);
    await a.app.get(ApplicationPasswordsService).revoke(user.id, user.passwordId);
    await b.http.get(`${ns}/events`).set('Authorization', user.auth).expect(401);

    const due = await insertPost(a, { status: 'future', dateUtc: '2020-01-01 10:00:00' });
    expect(await a.app.get(FuturePostsPublisher).runScheduled()).toEqual([due.id]);
    expect(await b.app.get(FuturePostsPublisher).runScheduled()).toBeNull();
  });

  it('keeps serving reads from the replica while the primary is down, ready but degraded, and says writes are not', async () => {
    const primary = new URL(servers.primaryUrl);
    const proxy = new FreezingProxy(primary.hostname, Number(primary.port));
    const viaProxy = new URL(servers.primaryUrl);
    viaProxy.port = String(await proxy.start());
    const d = await createTestApp({
      database: { url: viaProxy.toString(), kind: 'mysql', drop: () => Promise.resolve() },
      env: { DATABASE_READ_URLS: servers.replicaUrl, REPLICA_MAX_LAG_SECONDS: '3600' },
    });
    try {
      const up = await d.http.get('/health/ready').expect(200);
      expect(up.body.database).toMatchObject({ status: 'up', reads: 'up', writes: 'up' });
      await d.http.get('/health/ready/writes').expect(200);
      proxy.cut();
      const ready = await d.http.get('/health/ready').expect(200);
      expect(ready.body).toMatchObject({
        status: 'degraded',
        database: { status: 'down', reads: 'up', writes: 'down' },
        replicas: { status: 'up' },
      });
      const writes = await d.http.get('/health/ready/writes').expect(503);
      expect(writes.body.data.database).toMatchObject({ status: 'down', failed: 'read' });
      await d.http.get(`${ns}/events?per_page=5`).expect(200);
      await d.http
        .post(`${ns}/events`)
        .set('Authorization', editor.auth)
        .send({ title: 'No primary', start_date: '2031-05-01 10:00', end_date: '2031-05-01 11:00' })
        .expect(503);
      proxy.restore();
      // mysql2's PoolCluster keeps a node that failed out for its restoreNodeTimeout (5 s), then tries it
      // again on the next query: asked again and again (each ask a query, the event loop free between
      // them), never a timed wait.
      const primaryAnswers = () =>
        d.dataSource.query('SELECT 1').then(
          () => true,
          () => false,
        );
      for (let asks = 0; !(await primaryAnswers()); asks++) {
        expect(asks).toBeLessThan(50_000_000);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await d.http.get('/health/ready/writes').expect(200);
    } finally {
      await d.close();
      await proxy.stop();
    }
  });

  it('answers from the primary a read whose replica went away under it, and leaves the replica out', async () => {
    const { e, proxy } = await instanceBehindReplicaProxy();
    try {
      const before = await servers.selectsOnReplica();
      await e.http.get(`${ns}/events?per_page=5`).expect(200);
      expect(await servers.selectsOnReplica()).toBeGreaterThan(before);
      // The replica is gone; the instance has not noticed yet (its health still says so).
      proxy.cut();
      expect(e.app.get(ReplicaHealth).available).toBe(true);
      for (let i = 0; i < 5; i++) await e.http.get(`${ns}/events?per_page=5`).expect(200);
      expect(await e.app.get(ReplicaHealth).check()).toBe(false);
      const ready = await e.http.get('/health/ready').expect(200);
      expect(ready.body).toMatchObject({ status: 'degraded', replicas: { status: 'down' } });
    } finally {
      await e.close();
      await proxy.stop();
    }
  });

  it('answers from the primary the reads stuck on a replica that froze, once the check finds it not answering', async () => {
    // A statement timeout far beyond the test's: only giving the frozen replica up can answer these reads.
    const { e, proxy } = await instanceBehindReplicaProxy({ DB_QUERY_TIMEOUT_SECONDS: '3600' });
    try {
      await e.http.get(`${ns}/events?per_page=5`).expect(200);
      proxy.freeze();
      const reads = Promise.all(
        Array.from({ length: 6 }, (_, i) => e.http.get(`${ns}/events?per_page=${i + 1}`).then((r) => r.status)),
      );
      // The reads have reached the replica (their statements are sent and not answered).
      while (proxy.bytesSentWhileFrozen === 0) await new Promise((resolve) => setImmediate(resolve));
      expect(await e.app.get(ReplicaHealth).check()).toBe(false);
      expect(await reads).toEqual([200, 200, 200, 200, 200, 200]);
      const ready = await e.http.get('/health/ready').expect(200);
      expect(ready.body).toMatchObject({ status: 'degraded', replicas: { status: 'down' } });
    } finally {
      proxy.cut();
      await e.close();
      await proxy.stop();
    }
  });

  // Last: it stops the replica.
  it('keeps a writer on the primary after Redis lost its keys (a flush), while replication is paused', async () => {
    // A writer of their own: an earlier test spent the editor's failed-login allowance.
    const writer = await createUser(a, 'editor');
    await replicaInUse(b);
    await servers.pause();
    try {
      const created = await a.http
        .post(`${ns}/events`)
        .set('Authorization', writer.auth)
        .send({ title: 'Flushed', start_date: '2031-03-01 10:00', end_date: '2031-03-01 11:00' })
        .expect(201);
      const id = (created.body as { id: number }).id;
      pastMinimumWindow();
      // This service's keys gone, as in a FLUSHALL (the shared Redis itself is never flushed here).
      await dropRedisKeys(prefix);
      await b.http.get(`${ns}/events/${id}`).set('Authorization', writer.auth).expect(200);
      // The public still reads the replica, which has not applied the write.
      await b.http.get(`${ns}/events/${id}`).expect(404);
    } finally {
      await servers.resume();
      await servers.caughtUp();
    }
  });

  it('reads from the primary while no replica answers, and says it is degraded', async () => {
    await servers.stopReplica();
    expect(await b.app.get(ReplicaHealth).check()).toBe(false);
    await b.http.get(`${ns}/events?per_page=5`).expect(200);
    const ready = await b.http.get('/health/ready').expect(200);
    expect(ready.body).toMatchObject({ status: 'degraded', replicas: { status: 'down' } });
  });
});
