import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Clock } from '../../src/common/dates/clock';
import { DatabaseClock } from '../../src/database/database-clock';
import { CapturedStream } from '../support/captured-stream';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const NINETY_SECONDS = 90_000;
const sqlUtc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/**
 * Two instances on one database, one whose own clock runs 90 s fast (`CLOCK_OFFSET_MS`, the drill setting):
 * both decide publishing by the database's time (issue 44). A third with the same skew and `CLOCK_SYNC=false`
 * shows what that prevents.
 */
describe('clock skew between instances', () => {
  let steady: TestApp;
  let fast: TestApp;
  let uncorrected: TestApp;
  let editor: TestUser;
  const fastLogs = new CapturedStream();

  beforeAll(async () => {
    steady = await createTestApp();
    fast = await createTestApp({
      database: steady.database,
      env: { CLOCK_OFFSET_MS: String(NINETY_SECONDS), LOG_LEVEL: 'info' },
      logDestination: fastLogs,
    });
    uncorrected = await createTestApp({
      database: steady.database,
      env: { CLOCK_OFFSET_MS: String(NINETY_SECONDS), CLOCK_SYNC: 'false' },
    });
    editor = await createUser(steady, 'editor');
  });

  afterAll(async () => {
    await uncorrected.close();
    await fast.close();
    await steady.close();
  });

  const databaseNow = () => steady.app.get(DatabaseClock).nowMs();

  it('reads the same "now" on both instances, within a second of the database', async () => {
    const before = await databaseNow();
    const steadyNow = steady.app.get(Clock).now().getTime();
    const fastNow = fast.app.get(Clock).now().getTime();
    const after = await databaseNow();
    for (const now of [steadyNow, fastNow]) {
      expect(now).toBeGreaterThan(before - 1000);
      expect(now).toBeLessThan(after + 1000);
    }
    expect(Math.abs(fast.app.get(Clock).processNowMs() - Date.now() - NINETY_SECONDS)).toBeLessThan(1000);
    expect(uncorrected.app.get(Clock).now().getTime()).toBeGreaterThan(after + NINETY_SECONDS - 1000);
  });

  it('logs the skewed clock once, as JSON, and shows it in readiness', async () => {
    const warnings = fastLogs
      .lines()
      .map((line) => JSON.parse(line) as { level: number; msg: string; skew_ms?: number })
      .filter((entry) => entry.level === 40 && entry.msg.includes('clock'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toContain('ahead of the database');
    expect(Math.abs((warnings[0].skew_ms ?? 0) + NINETY_SECONDS)).toBeLessThan(1000);

    const ready = await fast.http.get('/health/ready').expect(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.clock).toEqual({ skew_ms: expect.any(Number), max_skew_ms: 2000, status: 'skewed' });
    expect(Math.abs((ready.body.clock as { skew_ms: number }).skew_ms + NINETY_SECONDS)).toBeLessThan(1000);
    const steadyReady = await steady.http.get('/health/ready').expect(200);
    expect(steadyReady.body.clock).toMatchObject({ status: 'ok', max_skew_ms: 2000 });
    expect(Math.abs((steadyReady.body.clock as { skew_ms: number }).skew_ms)).toBeLessThan(1000);
    expect((await uncorrected.http.get('/health/ready').expect(200)).body.clock).toBeUndefined();
  });

  it('stores a post dated a minute ahead as scheduled through the fast instance, and neither shows it early', async () => {
    const dateUtc = sqlUtc((await databaseNow()) + 60_000);
    const scheduled = await postEvent(fast, editor.auth, { title: 'Skew gala', date_utc: dateUtc, status: 'publish' });
    expect(scheduled.status).toBe('future');
    for (const instance of [steady, fast]) {
      const hidden = await instance.http.get(`${ns}/events/${String(scheduled.id)}`).expect(403);
      expect(hidden.body.code).toBe('event-not-accessible');
      const list = await instance.http.get(`${ns}/events?search=Skew%20gala&status=publish`).expect(200);
      expect(list.body.events).toEqual([]);
    }
    // The control: the same skew without the correction shows it 90 s early (and would have stored it published).
    const early = await uncorrected.http.get(`${ns}/events/${String(scheduled.id)}`).expect(200);
    expect(early.body.title).toBe('Skew gala');
    const stored = await postEvent(uncorrected, editor.auth, { title: 'Skew early', date_utc: dateUtc });
    expect(stored.status).toBe('publish');
  });

  it('shows a post dated just past on both instances', async () => {
    const dateUtc = sqlUtc((await databaseNow()) - 2000);
    const past = await postEvent(fast, editor.auth, { title: 'Skew matinee', date_utc: dateUtc });
    expect(past.status).toBe('publish');
    for (const instance of [steady, fast]) {
      await instance.http.get(`${ns}/events/${String(past.id)}`).expect(200);
    }
  });
});
