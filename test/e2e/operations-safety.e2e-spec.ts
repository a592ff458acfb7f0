import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { expectErrorShape } from '../support/error-shape';
import { StalledServerGuard } from '../../src/database/stalled-server-guard';
import { FreezingProxy } from '../support/freezing-proxy';
import { holdWrites } from '../support/hold-writes';
import { createTestDatabase } from '../support/test-database';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';

describe('operations: headers, caching, timeouts, logs, health', () => {
  let t: TestApp;
  let editor: TestUser;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      env: { LOG_LEVEL: 'info', DB_QUERY_TIMEOUT_SECONDS: '1', HTTP_REQUEST_TIMEOUT_SECONDS: '45' },
      logDestination: { write: (line: string) => lines.push(line) },
    });
    editor = await createUser(t, 'editor');
  });
  afterAll(async () => {
    await t.close();
  });

  it('sends security headers on API answers and keeps Swagger UI working', async () => {
    const res = await t.http.get(`${ns}/events`).expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const ui = await t.http.get(`${ns}/doc/ui/`).expect(200);
    expect(ui.text).toContain('swagger-ui');
  });

  it('marks authenticated answers private and uncacheable, and every answer as varying by credentials', async () => {
    const mine = await t.http.get(`${ns}/events`).set('Authorization', editor.auth).expect(200);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    const anonymous = await t.http.get(`${ns}/events`).expect(200);
    expect(anonymous.headers['cache-control']).toBeUndefined();
    expect(anonymous.headers.vary).toMatch(/Authorization/);
  });

  it('bounds slow requests: whole request and header deadlines from the configuration', () => {
    const server = t.app.getHttpServer() as { requestTimeout: number; headersTimeout: number };
    expect(server.requestTimeout).toBe(45_000);
    expect(server.headersTimeout).toBe(20_000);
  });

  it('keeps event passwords out of the access log', async () => {
    const event = await t.http
      .post(`${ns}/events`)
      .set('Authorization', editor.auth)
      .send({ title: 'Logged', start_date: '2031-01-01', end_date: '2031-01-01', password: 'hunter2-secret' })
      .expect(201);
    await t.http.get(`${ns}/events/${event.body.id}?password=hunter2-secret&x=1`).expect(200);
    const logged = lines.join('');
    expect(logged).toContain(`/events/${event.body.id}?password=[redacted]&x=1`);
    expect(logged).not.toContain('hunter2');
    expect(logged).not.toContain(editor.password);
  });

  it('answers 503 when writes cannot go through, and /health says so, then recovers', async () => {
    await t.http.get('/health/ready').expect(200);
    const held = await holdWrites(t);
    try {
      const health = await t.http.get('/health/ready').expect(503);
      expectErrorShape(health);
      expect(health.body.data.database).toMatchObject({ status: 'down', failed: 'write' });
      if (t.database.kind === 'sqlite') {
        // SQLite's one writer is held: a write waits at most DB_QUERY_TIMEOUT_SECONDS, then 503.
        const write = await t.http
          .post(`${ns}/tags`)
          .set('Authorization', editor.auth)
          .send({ name: 'WaitedTooLong' })
          .expect(503);
        expectErrorShape(write);
      }
    } finally {
      held.release();
      await held.done;
    }
    await t.http.get('/health/ready').expect(200);
  });

  it('logs database failures without the values bound to the statement', async () => {
    lines.length = 0;
    const held = await holdWrites(t);
    try {
      if (t.database.kind === 'sqlite') {
        await t.http
          .post(`${ns}/tags`)
          .set('Authorization', editor.auth)
          .send({ name: 'BoundValue-xyzzy' })
          .expect(503);
      } else {
        await t.http.get('/health/ready').expect(503);
      }
    } finally {
      held.release();
      await held.done;
    }
    const logged = lines.join('');
    expect(logged).not.toContain('xyzzy');
    expect(logged).not.toContain('PARAMETERS');
    expect(logged).not.toMatch(/\n\s+at /);
  });
});

describe('operations: a frozen database', () => {
  it('answers 503 within the statement timeout, not never, and recovers', async () => {
    const database = await createTestDatabase();
    if (database.kind === 'sqlite') {
      // SQLite cannot freeze under the service; what comes closest is a writer that never finishes.
      const t = await createTestApp({ database, env: { DB_QUERY_TIMEOUT_SECONDS: '1' } });
      try {
        const editor = await createUser(t, 'editor');
        const held = await holdWrites(t);
        const stuck = await t.http.post(`${ns}/tags`).set('Authorization', editor.auth).send({ name: 'Stuck' });
        held.release();
        await held.done;
        expect(stuck.status).toBe(503);
        await t.http.post(`${ns}/tags`).set('Authorization', editor.auth).send({ name: 'Stuck' }).expect(201);
      } finally {
        await t.close();
        await database.drop();
      }
      return;
    }
    const target = new URL(database.url);
    const proxy = new FreezingProxy(target.hostname, Number(target.port || 3306));
    const port = await proxy.start();
    const viaProxy = new URL(database.url);
    viaProxy.port = String(port);
    const t = await createTestApp({
      database: { ...database, url: viaProxy.toString() },
      env: { DB_QUERY_TIMEOUT_SECONDS: '1' },
    });
    try {
      const editor = await createUser(t, 'editor');
      const created = await t.http
        .post(`${ns}/events`)
        .set('Authorization', editor.auth)
        .send({ title: 'Before the freeze', start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00' })
        .expect(201);
      const id = (created.body as { id: number }).id;
      await t.http.get(`${ns}/events`).expect(200);
      proxy.freeze();
      const frozen = await t.http.get(`${ns}/events`).expect(503);
      expectErrorShape(frozen);
      expect(frozen.body.code).toBe('rest_service_unavailable');
      // More requests than the pool has connections, anonymous and signed in: every one is answered while the
      // server is still frozen. A connection whose statement timed out went back to the pool with that
      // statement still on it, and the next request's statement queued behind it with no timer of its own.
      const burst = await Promise.all(
        Array.from({ length: 24 }, (_, i) => {
          const path = i % 2 === 0 ? `${ns}/events` : `${ns}/events/${id}`;
          const req = t.http.get(path);
          return (i % 3 === 0 ? req.set('Authorization', editor.auth) : req).then((r) => r.status);
        }),
      );
      expect(burst).toEqual(Array.from({ length: 24 }, () => 503));
      // Found stalled, the service turns requests away without asking the server again.
      expect(await t.app.get(StalledServerGuard).probe()).toBe(false);
      const sentBefore = proxy.bytesSentWhileFrozen;
      const turnedAway = await t.http.get(`${ns}/events/${id}`).expect(503);
      expect(turnedAway.body.code).toBe('rest_service_unavailable');
      const ready = await t.http.get('/health/ready').expect(503);
      expect(ready.body.data.database).toMatchObject({ status: 'down', stalled: true });
      expect(proxy.bytesSentWhileFrozen).toBe(sentBefore);
      proxy.thaw();
      expect(await t.app.get(StalledServerGuard).probe()).toBe(true);
      let recovered = 0;
      for (let i = 0; i < 20 && recovered !== 200; i++) recovered = (await t.http.get(`${ns}/events`)).status;
      expect(recovered).toBe(200);
    } finally {
      await t.close();
      await proxy.stop();
      await database.drop();
    }
  });
});
