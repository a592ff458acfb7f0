import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { currentZoneRules, EventZoneRebase, ZONE_RULES_ROW } from '../../src/modules/events/derived/event-zone-rebase';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { createUser } from '../support/users';

const ns = '/cal/events/v1';
const NOW = new Date('2031-01-01T12:00:00Z');
const window = 'start_date=2030-01-01&end_date=2031-12-31';

/**
 * Events keep the wall time their organizer named in their zone; when the zone's rules change (a Node
 * upgrade brings new IANA data), the start moves the UTC times of events still to come to the new rules,
 * as updates everything else follows. Simulated by giving stored events the UTC times other rules gave.
 */
describe('events after a change of time zone rules', () => {
  let database: TestDatabase;
  let t: TestApp | null = null;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.close();
    await database.drop();
  });

  const start = async () => {
    await t?.close();
    t = await createTestApp({ database, now: NOW, env: { RESPONSE_CACHE_MB: '0' } });
    return t;
  };
  const stored = async (app: TestApp, id: number) =>
    (
      await app.dataSource.query<{ start_utc: string; end_utc: string }[]>(
        'SELECT start_utc, end_utc FROM event_details WHERE post_id = ?',
        [id],
      )
    ).map((r) => [String(r.start_utc).slice(0, 19), String(r.end_utc).slice(0, 19)])[0];

  it('records the rules at the first start and moves nothing', async () => {
    const app = await start();
    expect(await app.app.get(EventZoneRebase).rebaseIfRulesChanged()).toEqual([]);
    const [row] = await app.dataSource.query<{ version: string }[]>(
      'SELECT version FROM derived_stores WHERE name = ?',
      [ZONE_RULES_ROW],
    );
    expect(row.version).toBe(currentZoneRules());
  });

  it('moves the UTC times of events still to come to the rules in force, as updates, and leaves ended ones', async () => {
    const app = t!;
    const admin = await createUser(app, 'administrator');
    const make = async (name: string, timezone: string, startDate: string, endDate: string) => {
      ids[name] = Number(
        (await postEvent(app, admin.auth, { title: name, timezone, start_date: startDate, end_date: endDate })).id,
      );
    };
    await make('Samba night', 'America/Sao_Paulo', '2031-06-01 19:00', '2031-06-01 22:00');
    await make('Berlin brunch', 'Europe/Berlin', '2031-07-01 10:00', '2031-07-01 12:00');
    await make('Past samba', 'America/Sao_Paulo', '2030-06-01 19:00', '2030-06-01 22:00');
    const right = await stored(app, ids['Samba night']);
    expect(right).toEqual(['2031-06-01 22:00:00', '2031-06-02 01:00:00']);
    const pastRight = await stored(app, ids['Past samba']);
    const { next_token: since } = (await app.http.get(`${ns}/changes`).set('Authorization', admin.auth).expect(200))
      .body as { next_token: string };

    // Times as older rules gave them (São Paulo with summer time: an hour earlier in UTC), recorded as such.
    for (const id of [ids['Samba night'], ids['Past samba']]) {
      await app.dataSource.query(
        `UPDATE event_details SET start_utc = ?, end_utc = ? WHERE post_id = ?`,
        id === ids['Samba night']
          ? ['2031-06-01 21:00:00', '2031-06-02 00:00:00', id]
          : ['2030-06-01 21:00:00', '2030-06-02 00:00:00', id],
      );
    }
    await app.dataSource.query('UPDATE derived_stores SET version = ? WHERE name = ?', ['tz:1999a', ZONE_RULES_ROW]);

    const next = await start();
    // The start did it before listening: the event to come is back at 19:00 local time, the ended one is not.
    expect(await stored(next, ids['Samba night'])).toEqual(right);
    expect(await stored(next, ids['Past samba'])).not.toEqual(pastRight);
    expect(await stored(next, ids['Berlin brunch'])).toEqual(['2031-07-01 08:00:00', '2031-07-01 10:00:00']);
    const read = (await next.http.get(`${ns}/events/${ids['Samba night']}`).expect(200)).body;
    expect([read.start_date, read.utc_start_date]).toEqual(['2031-06-01 19:00:00', '2031-06-01 22:00:00']);
    // Told as an update to whoever syncs; nothing else changed.
    const feed = (await next.http.get(`${ns}/changes?since=${since}`).set('Authorization', admin.auth).expect(200))
      .body as { changes: { resource: string; id: number; object: { utc_start_date: string } }[] };
    expect(feed.changes.map((c) => [c.resource, c.id, c.object.utc_start_date])).toEqual([
      ['event', ids['Samba night'], '2031-06-01 22:00:00'],
    ]);
    // The day counts followed: the list's total and page agree with the rows.
    const list = await next.http.get(`${ns}/events?${window}&per_page=10`).expect(200);
    expect(list.headers['x-wp-total']).toBe('3');
    expect((list.body.events as { id: number }[]).map((e) => e.id)).toEqual([
      ids['Past samba'],
      ids['Samba night'],
      ids['Berlin brunch'],
    ]);
    const [row] = await next.dataSource.query<{ version: string }[]>(
      'SELECT version FROM derived_stores WHERE name = ?',
      [ZONE_RULES_ROW],
    );
    expect(row.version).toBe(currentZoneRules());
    // Once recorded, a start does nothing.
    expect(await next.app.get(EventZoneRebase).rebaseIfRulesChanged()).toEqual([]);
  });
});
