import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Redis } from 'ioredis';
import { WebhookWorker } from '../../src/modules/webhooks/webhook-worker';
import { dropRedisKeys, REDIS_URL } from '../support/redis-keys';
import { createTestApp, SteppingClock, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createUser, type TestUser } from '../support/users';
import { WebhookReceiver, type ReceivedDelivery } from '../support/webhook-receiver';

const ns = '/cal/events/v1';
const HOUR = 3_600_000;

/** What a receiver does with the headers and the raw body (docs/sync-and-webhooks.md). */
function verifies(secret: string, delivery: ReceivedDelivery): boolean {
  const timestamp = String(delivery.headers['x-cal-webhook-timestamp']);
  const expected = Buffer.from(
    `v1=${createHmac('sha256', secret).update(`${timestamp}.${delivery.body}`).digest('hex')}`,
  );
  const given = Buffer.from(String(delivery.headers['x-cal-webhook-signature']));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe.each(['database', 'redis'] as const)('webhooks (%s queue)', (mode) => {
  let t: TestApp;
  const prefix = `test-${process.pid}-${randomBytes(4).toString('hex')}`;
  let admin: TestUser;
  let editor: TestUser;
  let receiver: WebhookReceiver;
  let url: string;
  const clock = new SteppingClock();
  const worker = () => t.app.get(WebhookWorker);

  const api = (method: 'get' | 'post' | 'delete', path: string, auth = admin.auth) =>
    t.http[method](`${ns}${path}`).set('Authorization', auth);
  const register = async (fields: Record<string, unknown> = {}) =>
    (
      await api('post', '/webhooks')
        .send({ url, ...fields })
        .expect(201)
    ).body as { id: number; secret: string };
  /** Runs worker rounds, moving the clock past each retry's wait, until nothing is pending. */
  const drain = async (rounds = 40) => {
    for (let i = 0; i < rounds; i++) {
      const { outcomes } = await worker().runOnce();
      const pending = await t.dataSource.query("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'");
      if (Number((pending as { n: number }[])[0].n) === 0) return;
      if (outcomes.length === 0) clock.advance(HOUR);
    }
    throw new Error('deliveries still pending');
  };

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    url = await receiver.start();
    t = await createTestApp({
      clock,
      env: {
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOKS_WORKER: 'true',
        WEBHOOKS_POLL_SECONDS: '3600',
        FUTURE_POSTS_INTERVAL_SECONDS: '3600',
        ...(mode === 'redis' ? { REDIS_URL, REDIS_KEY_PREFIX: prefix } : {}),
      },
    });
    admin = await createUser(t, 'administrator');
    editor = await createUser(t, 'editor');
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
    if (mode === 'redis') await dropRedisKeys(prefix);
  });

  it('lets administrators only manage endpoints; shows the secret once', async () => {
    await t.http.get(`${ns}/webhooks`).expect(401);
    await api('get', '/webhooks', editor.auth).expect(403);
    await api('post', '/webhooks', editor.auth).send({ url }).expect(403);
    const created = await register({ events: ['tag.*'], description: 'tags' });
    expect(created.secret).toMatch(/^whsec_/);
    const read = (await api('get', `/webhooks/${created.id}`).expect(200)).body as Record<string, unknown>;
    expect(read).toMatchObject({
      url,
      events: ['tag.*'],
      description: 'tags',
      status: 'active',
      disabled_reason: null,
    });
    expect(read.secret).toBeUndefined();
    const list = (await api('get', '/webhooks').expect(200)).body as { webhooks: { id: number }[] };
    expect(list.webhooks.map((w) => w.id)).toContain(created.id);
    await api('post', `/webhooks/${created.id}`)
      .send({ events: ['category.created'] })
      .expect(200);
    await api('post', `/webhooks/${created.id}`)
      .send({ events: ['nonsense'] })
      .expect(400);
    await api('post', `/webhooks/${created.id}`).send({ secret: 'short' }).expect(400);
    await api('delete', `/webhooks/${created.id}`).expect(200);
    expect((await api('get', `/webhooks/${created.id}`).expect(404)).body.code).toBe('rest-webhook-not-found');
    await api('post', '/webhooks').send({ url: null }).expect(400);
    await api('post', '/webhooks').send({ url: 'ftp://example.org/x' }).expect(400);
  });

  it('delivers signed, in order per record, retries failures and sends each delivery id until it succeeds', async () => {
    const hook = await register({ events: ['event.*'] });
    receiver.received.length = 0;
    receiver.answers = [500, 503];
    const event = await postEvent(t, editor.auth, { title: 'Hooked' });
    await api('post', `/events/${event.id}`, editor.auth).send({ title: 'Hooked again' }).expect(200);
    await postEvent(t, editor.auth, { title: 'Draft, never sent', status: 'draft' });
    await drain();
    const ids = receiver.received.map((r) => r.json.id);
    expect(receiver.received.map((r) => [r.json.type, r.json.data.id])).toEqual([
      ['event.created', event.id],
      ['event.created', event.id],
      ['event.created', event.id],
      ['event.updated', event.id],
    ]);
    expect(new Set(ids.slice(0, 3)).size).toBe(1);
    // Exactly once by id: each delivery id was accepted (2xx) once.
    const accepted = receiver.received.filter((r) => r.answered === 200).map((r) => r.json.id);
    expect(accepted).toEqual([ids[0], ids[3]]);
    expect(ids[3]).not.toBe(ids[0]);
    expect(receiver.received.every((r) => verifies(hook.secret, r))).toBe(true);
    expect(receiver.received.every((r) => r.headers['x-cal-webhook-id'] === r.json.id)).toBe(true);
    const last = JSON.parse(receiver.received[3].body) as { data: { object: { title: string } } };
    expect(last.data.object.title).toBe('Hooked again');
    const deliveries = (await api('get', `/webhooks/${hook.id}/deliveries`).expect(200)).body as {
      deliveries: { id: string; status: string; attempts: number; type: string }[];
    };
    expect(deliveries.deliveries.map((d) => [d.type, d.status, d.attempts])).toEqual([
      ['event.updated', 'delivered', 1],
      ['event.created', 'delivered', 3],
    ]);
    // Sent again on request, with the same id.
    await api('post', `/webhooks/${hook.id}/deliveries/${ids[0]}/redeliver`).expect(201);
    await drain();
    expect(receiver.received.at(-1)?.json.id).toBe(ids[0]);
    await api('post', `/webhooks/${hook.id}/deliveries/nope/redeliver`).expect(404);
    if (mode === 'redis') {
      // The attempts ran as BullMQ jobs: completed ones are kept for an hour under the run's prefix.
      const redis = new Redis(REDIS_URL);
      const completed = await redis.zcard(`${prefix}:webhook-deliveries:completed`);
      await redis.quit();
      expect(completed).toBeGreaterThanOrEqual(receiver.received.length);
    }
    await api('delete', `/webhooks/${hook.id}`).expect(200);
  });

  it('delivers one event.created per occurrence of a new series, and one event.updated per occurrence of a series edit', async () => {
    const hook = await register({ events: ['event.*'] });
    receiver.received.length = 0;
    receiver.answers = [];
    const first = await postEvent(t, editor.auth, {
      title: 'Hooked series',
      start_date: '2031-02-03 18:00:00',
      end_date: '2031-02-03 19:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    await drain();
    const objectOf = (r: { body: string }) =>
      (JSON.parse(r.body) as { data: { object: { series_id: number; title: string } } }).data.object;
    const created = receiver.received.map((r) => [r.json.type, objectOf(r).series_id]);
    expect(created).toEqual([
      ['event.created', first.id],
      ['event.created', first.id],
      ['event.created', first.id],
    ]);
    const ids = receiver.received.map((r) => r.json.data.id);
    receiver.received.length = 0;
    await api('post', `/events/${ids[1]}?scope=all`, editor.auth).send({ title: 'Hooked series, renamed' }).expect(200);
    await drain();
    expect(receiver.received.map((r) => [r.json.type, r.json.data.id]).sort()).toEqual(
      ids.map((id) => ['event.updated', id]).sort(),
    );
    expect(receiver.received.every((r) => objectOf(r).title === 'Hooked series, renamed')).toBe(true);
    await api('delete', `/webhooks/${hook.id}`).expect(200);
  });

  it('deletes finished deliveries after WEBHOOKS_DELIVERY_RETENTION_DAYS, keeping lately resent ones', async () => {
    const hook = await register({ events: ['tag.created'] });
    receiver.answers = [];
    const names = new Map<number, string>();
    const tag = async (name: string) =>
      names.set(((await api('post', '/tags', editor.auth).send({ name }).expect(201)).body as { id: number }).id, name);
    const deliveries = async () =>
      (
        (await api('get', `/webhooks/${hook.id}/deliveries?per_page=100`).expect(200)).body as {
          deliveries: { id: string; resource_id: number; status: string }[];
        }
      ).deliveries.map((d) => ({ id: d.id, name: names.get(d.resource_id), status: d.status }));
    const listed = async () => (await deliveries()).map((d) => `${d.name}:${d.status}`).sort();
    await tag('old-1');
    await tag('old-2');
    await drain();
    expect(await listed()).toEqual(['old-1:delivered', 'old-2:delivered']);
    // Deliveries of different records go out in parallel: find old-2's by its record, not by arrival.
    const resent = (await deliveries()).find((d) => d.name === 'old-2')?.id;
    clock.advance(31 * 24 * HOUR);
    await api('post', `/webhooks/${hook.id}/deliveries/${resent}/redeliver`).expect(201);
    await tag('new');
    // The worker's first round an hour or more after its last pruning prunes again.
    await drain();
    expect(await listed()).toEqual(['new:delivered', 'old-2:delivered']);
    await api('delete', `/webhooks/${hook.id}`).expect(200);
  });

  it('unsubscribes on 410 Gone, with the reason visible', async () => {
    const hook = await register({ events: ['tag.created'] });
    receiver.answers = [410];
    await api('post', '/tags', editor.auth).send({ name: 'gone' }).expect(201);
    await worker().runOnce();
    const read = (await api('get', `/webhooks/${hook.id}`).expect(200)).body as Record<string, unknown>;
    expect(read).toMatchObject({ status: 'disabled', disabled_reason: expect.stringMatching(/410/) });
    await api('delete', `/webhooks/${hook.id}`).expect(200);
  });

  it('gives up after the retry window, disables the endpoint with the reason, and resumes when re-enabled', async () => {
    const hook = await register({ events: ['category.created'] });
    receiver.answers = Array.from({ length: 100 }, () => 500);
    await api('post', '/categories', editor.auth).send({ name: 'Never reached' }).expect(201);
    for (let i = 0; i < 100; i++) {
      await worker().runOnce();
      const status = ((await api('get', `/webhooks/${hook.id}`).expect(200)).body as { status: string }).status;
      if (status === 'disabled') break;
      clock.advance(HOUR);
    }
    const read = (await api('get', `/webhooks/${hook.id}`).expect(200)).body as Record<string, unknown>;
    expect(read).toMatchObject({
      status: 'disabled',
      disabled_reason: expect.stringMatching(/failed for 24 h.*HTTP 500/),
    });
    const failed = (await api('get', `/webhooks/${hook.id}/deliveries?status=failed`).expect(200)).body as {
      deliveries: { attempts: number }[];
    };
    expect(failed.deliveries).toHaveLength(1);
    expect(failed.deliveries[0].attempts).toBeGreaterThan(5);
    receiver.answers = [];
    await api('post', `/webhooks/${hook.id}`).send({ status: 'active' }).expect(200);
    await api('post', '/categories', editor.auth).send({ name: 'Reached' }).expect(201);
    const before = receiver.received.length;
    await drain();
    expect(receiver.received.slice(before).map((r) => r.json.type)).toEqual(['category.created']);
    await api('delete', `/webhooks/${hook.id}`).expect(200);
  });
});

describe.each(['database', 'redis'] as const)('webhooks: a receiver that hangs (%s queue)', (mode) => {
  let t: TestApp;
  const prefix = `test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const hanging = new WebhookReceiver();
  const healthy = new WebhookReceiver();

  beforeAll(async () => {
    hanging.hold = true;
    t = await createTestApp({
      env: {
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOKS_WORKER: 'true',
        WEBHOOKS_POLL_SECONDS: '1',
        // Longer than the test may take: a worker that waited for the held request would never get on.
        WEBHOOKS_TIMEOUT_SECONDS: '60',
        FUTURE_POSTS_INTERVAL_SECONDS: '3600',
        ...(mode === 'redis' ? { REDIS_URL, REDIS_KEY_PREFIX: prefix } : {}),
      },
    });
  });
  afterAll(async () => {
    await hanging.stop();
    await healthy.stop();
    await t.close();
    if (mode === 'redis') await dropRedisKeys(prefix);
  });

  it('delivers to every other endpoint while one receiver holds its request', async () => {
    const admin = await createUser(t, 'administrator');
    for (const receiver of [hanging, healthy]) {
      await t.http
        .post(`${ns}/webhooks`)
        .set('Authorization', admin.auth)
        .send({ url: await receiver.start(), events: ['event.*'] })
        .expect(201);
    }
    for (let i = 0; i < 3; i++) await postEvent(t, admin.auth, { title: `Isolated ${i}` });
    // The rounds run on their own timer; the healthy receiver gets all three while the first is held.
    await healthy.receivedCount(3);
    expect(healthy.received.map((d) => d.json.type)).toEqual(['event.created', 'event.created', 'event.created']);
    // One attempt at a time per endpoint: the hanging receiver holds one request, not three.
    expect(hanging.received).toHaveLength(1);
  });
});

describe('webhooks without WEBHOOKS_ALLOW_PRIVATE', () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, 'administrator');
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://10.0.0.5/hook',
    'http://[::1]/hook',
    'http://[::ffff:192.168.0.1]/hook',
  ])('refuses %s (SSRF guard)', async (target) => {
    const res = await t.http.post(`${ns}/webhooks`).set('Authorization', admin.auth).send({ url: target }).expect(400);
    expect(res.body.data.params.url).toMatch(/refused/);
  });
});
