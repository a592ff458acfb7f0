import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { createUser } from '../support/users';

const ns = '/cal/events/v1';

/**
 * `global_id` and iCalendar UIDs are what calendar clients key events by: once the site's address is known
 * they must not follow a later PUBLIC_URL, nor the Host a request names.
 */
describe('site identity: the host of global ids and UIDs', () => {
  let database: TestDatabase;
  let eventId: number;
  const apps: TestApp[] = [];
  // Every app logs into a list (the test's, when it reads them): nothing reaches the runner's output.
  const start = async (env: Record<string, string>, lines: string[] = []) => {
    const t = await createTestApp({
      database,
      env: { LOG_LEVEL: 'info', ...env },
      logDestination: { write: (line: string) => lines.push(line) },
    });
    apps.push(t);
    return t;
  };
  const globalIdVia = async (t: TestApp, host: string) => {
    const res = await t.http.get(`${ns}/events/${eventId}`).set('Host', host).expect(200);
    return res.body as { global_id: string; rest_url: string };
  };
  const uidVia = async (t: TestApp, host: string) => {
    const res = await t.http
      .get(`${ns}/events.ics?start_date=2031-01-01&end_date=2031-12-31`)
      .set('Host', host)
      .expect(200);
    return /^UID:(.*)$/m.exec(res.text.replace(/\r\n /g, ''))?.[1].trim();
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await database.drop();
  });

  it('follows the request while nothing is known, and says so at start', async () => {
    const lines: string[] = [];
    const t = await start({}, lines);
    const editor = await createUser(t, 'editor');
    eventId = (
      await postEvent(t, editor.auth, {
        title: 'Identity',
        start_date: '2031-02-01 10:00:00',
        end_date: '2031-02-01 11:00:00',
      })
    ).id;
    expect((await globalIdVia(t, 'a.example')).global_id).toBe(`a.example?id=${eventId}`);
    expect((await globalIdVia(t, 'b.example')).global_id).toBe(`b.example?id=${eventId}`);
    expect(lines.join('')).toContain('no site host recorded yet');
  });

  it('does not record a localhost PUBLIC_URL (a first try on a laptop)', async () => {
    const t = await start({ PUBLIC_URL: 'http://localhost:3000' });
    expect((await globalIdVia(t, 'b.example')).global_id).toBe(`localhost:3000?id=${eventId}`);
    const later = await start({});
    expect((await globalIdVia(later, 'c.example')).global_id).toBe(`c.example?id=${eventId}`);
  });

  it('records the first real PUBLIC_URL and keeps it when PUBLIC_URL and Host change', async () => {
    const first = await start({ PUBLIC_URL: 'https://cal.example.org' });
    const before = await globalIdVia(first, 'whatever.example');
    expect(before.global_id).toBe(`cal.example.org?id=${eventId}`);
    const uid = await uidVia(first, 'whatever.example');
    expect(uid).toBe(`cal.example.org?id=${eventId}`);

    const moved = await start({ PUBLIC_URL: 'https://events.example.net' });
    const after = await globalIdVia(moved, 'whatever.example');
    expect(after.global_id).toBe(before.global_id);
    expect(after.rest_url).toBe(`https://events.example.net${ns}/events/${eventId}`);
    expect(await uidVia(moved, 'other.example')).toBe(uid);
    // Without PUBLIC_URL at all, still the recorded host, whatever the request names.
    const bare = await start({});
    expect((await globalIdVia(bare, 'd.example')).global_id).toBe(before.global_id);
  });

  it('takes GLOBAL_ID_HOST over the recorded host, and records it, with a warning', async () => {
    const lines: string[] = [];
    const pinned = await start({ GLOBAL_ID_HOST: 'Pinned.Example', PUBLIC_URL: 'https://events.example.net' }, lines);
    expect((await globalIdVia(pinned, 'x.example')).global_id).toBe(`pinned.example?id=${eventId}`);
    expect(lines.join('')).toContain('GLOBAL_ID_HOST pinned.example replaces the recorded cal.example.org');
    const next = await start({});
    expect((await globalIdVia(next, 'y.example')).global_id).toBe(`pinned.example?id=${eventId}`);
  });
});
