import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { dropRedisKeys, REDIS_URL } from '../support/redis-keys';
import { ServiceProcess, buildService } from '../support/service-process';
import { TecFixtureServer } from '../support/tec-fixture-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { createUser, type TestUser } from '../support/users';

const HOME = '/cal/events/v1';
/** TEC's third page of every event, anonymously: where the first instance is stopped. */
const THIRD_PAGE = (key: string) => key.includes('/events?') && key.includes('page=3');

/**
 * Import runs on the queue (REDIS_URL): an instance killed in the middle of a run, another takes the same
 * run up within its lock time and finishes it; nothing imported twice, nothing lost.
 */
describe('import runs survive their instance', () => {
  let database: TestDatabase;
  let t: TestApp;
  let admin: TestUser;
  const site = new TecFixtureServer();
  const prefix = `import-queue-${randomBytes(4).toString('hex')}`;
  const services: ServiceProcess[] = [];
  const start = async () => {
    const service = new ServiceProcess({
      DATABASE_URL: database.url,
      PORT: '0',
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      IMPORTS_ALLOW_PRIVATE: 'true',
      IMPORTS_SCHEDULER: 'false',
      // Long enough that a loaded machine's late lock renewal is not taken for a dead instance.
      IMPORTS_RUN_LOCK_SECONDS: '10',
      IMPORTS_FETCH_TIMEOUT_SECONDS: '600',
      WEBHOOKS_WORKER: 'false',
      SITE_TIMEZONE: 'UTC',
    });
    services.push(service);
    await service.until((lines) => lines.some((l) => l.msg.includes(' listening on ')));
    const port = Number(/ listening on \S+:(\d+)/.exec(service.listening()[0].msg)![1]);
    return { service, url: `http://127.0.0.1:${port}${HOME}` };
  };
  const api = (base: string, path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { Authorization: admin.auth, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
    });

  beforeAll(async () => {
    buildService();
    await site.start();
    database = await createTestDatabase({ migrated: true });
    t = await createTestApp({ database, env: { SITE_TIMEZONE: 'UTC' } });
    admin = await createUser(t, 'administrator');
  });
  afterAll(async () => {
    for (const service of services) service.child.kill('SIGKILL');
    await t?.close();
    await site.stop();
    await database?.drop();
    await dropRedisKeys(prefix);
  });

  it('goes on with a run in another instance when its own is killed, writing each record once', async () => {
    const first = await start();
    const created = await api(first.url, '/imports', {
      method: 'POST',
      body: JSON.stringify({ kind: 'tec', url: site.url }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: number }).id;
    // The third page of events never answers the first instance.
    site.faults.set(
      '/wp-json/tribe/events/v1/events?end_date=2100-12-31+23%3A59%3A59&page=3&per_page=50&start_date=2000-01-01+00%3A00%3A00',
      'hang',
    );
    const started = await api(first.url, `/imports/${id}/run`, { method: 'POST' });
    expect(started.status).toBe(202);
    const run = (await started.json()) as { id: number; status: string };
    expect(run.status).toBe('running');
    await site.until(THIRD_PAGE);
    // On MySQL the other instance is up already; SQLite serves one writer per file, so there it is the
    // instance started in the dead one's place.
    const sqlite = database.kind === 'sqlite';
    const beside = sqlite ? null : await start();
    first.service.child.kill('SIGKILL');
    await first.service.exited;
    site.faults.clear();
    const second = beside ?? (await start());
    type RunBody = { id: number; status: string; created: number; unchanged: number; failed: unknown[] };
    // The second instance takes the same run up once the first one's lock has lapsed, and says when it ends.
    await second.service.until((lines) => lines.some((l) => l.msg.includes(`import ${id}: run ${run.id} ended`)));
    const ended = (await (await api(second.url, `/imports/${id}/runs/${run.id}`)).json()) as RunBody;
    expect(ended).toMatchObject({ id: run.id, status: 'succeeded', failed: [] });
    const runs = (await (await api(second.url, `/imports/${id}/runs`)).json()) as { runs: { id: number }[] };
    expect(runs.runs.map((r) => r.id)).toEqual([run.id]);
    // Each event of the site once: as many events here as the ledger has events of that source.
    const [{ n: events }] = await t.dataSource.query<{ n: number }[]>(
      "SELECT COUNT(*) AS n FROM posts WHERE type = 'cal_event'",
    );
    const [{ n: imported }] = await t.dataSource.query<{ n: number }[]>(
      "SELECT COUNT(*) AS n FROM imported_records WHERE source_id LIKE 'event:%'",
    );
    expect(Number(events)).toBe(Number(imported));
    expect(Number(events)).toBeGreaterThan(250);
    // What the first instance wrote before it died was matched, not written again.
    expect(ended.created + ended.unchanged).toBeGreaterThan(0);
  });
});
