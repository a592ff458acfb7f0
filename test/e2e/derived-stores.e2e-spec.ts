import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runCli } from '../../src/cli/run-cli';
import { AddEventSearchWords1764400000000 } from '../../src/database/migrations/1764400000000-add-event-search-words';
import { SchemaMigrations } from '../../src/database/schema-migrations';
import { storeVersion } from '../../src/database/derived-stores';
import { CapturedStream } from '../support/captured-stream';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { createUser } from '../support/users';

const ns = '/cal/events/v1';
const window = 'start_date=2032-01-01&end_date=2032-12-31';

async function migrationsRun(url: string): Promise<{ applied: string[]; derived_filled: string[] }> {
  const stdout = new CapturedStream();
  const code = await runCli(['node', 'cli', 'migrations:run', '--json'], {
    stdout: stdout.asWriteStream(),
    stderr: new CapturedStream().asWriteStream(),
    overrides: { DATABASE_URL: url, LOG_LEVEL: 'silent' },
  });
  expect(code).toBe(0);
  return JSON.parse(stdout.text) as { applied: string[]; derived_filled: string[] };
}

/** Every derived row, in a stable order: what a fill must reproduce exactly. */
async function derivedRows(t: TestApp): Promise<unknown[]> {
  const words = await t.dataSource.query(
    'SELECT post_id, word, in_title, in_body, public_match, start_utc, end_utc FROM event_search_words ORDER BY post_id, word',
  );
  const days = await t.dataSource.query(
    'SELECT word, start_day, end_day, matched FROM event_search_word_days WHERE matched <> 0 ORDER BY word, start_day, end_day',
  );
  return [JSON.stringify(words), JSON.stringify(days)];
}

/**
 * The word index is a derived store: its migration creates it empty, and the service fills it with today's
 * code whenever the recorded version is missing or not that code's (an upgrade from a database filled by
 * other code, or the migration that created it). Migrations never run module code.
 */
describe('derived stores', () => {
  let database: TestDatabase;
  let t: TestApp | null = null;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.close();
    await database.drop();
  });

  const start = async () => {
    await t?.close();
    t = await createTestApp({ database, env: { RESPONSE_CACHE_MB: '0' } });
    return t;
  };
  const total = async (app: TestApp, word: string) =>
    Number((await app.http.get(`${ns}/events?${window}&search=${word}`).expect(200)).headers['x-tec-total']);

  it('fills the word index at start when its version is missing or not the running code, once', async () => {
    const first = await start();
    // A fresh database: the migrations made the table empty, the start filled it (with nothing yet).
    expect(first.app.get(SchemaMigrations).filledAtStart).toEqual(['event-search-words']);
    const admin = await createUser(first, 'administrator');
    for (const title of ['Harbour concert', 'Harbour walk', 'Choir <em>evening</em>']) {
      await first.http
        .post(`${ns}/events`)
        .set('Authorization', admin.auth)
        .send({ title, status: 'publish', start_date: '2032-05-01 19:00', end_date: '2032-05-01 21:00' })
        .expect(201);
    }
    await first.http
      .post(`${ns}/events`)
      .set('Authorization', admin.auth)
      .send({ title: 'Harbour draft', status: 'draft', start_date: '2032-05-02 19:00', end_date: '2032-05-02 21:00' })
      .expect(201);
    expect(await total(first, 'harbour')).toBe(2);
    const written = await derivedRows(first);

    // As a database filled by other code looks to this code: another version recorded, other rows.
    await first.dataSource.query('DELETE FROM event_search_word_days');
    await first.dataSource.query('DELETE FROM event_search_words');
    await first.dataSource.query("UPDATE derived_stores SET version = 'other-code' WHERE name = 'event-search-words'");
    expect(await total(first, 'harbour')).toBe(0);

    const second = await start();
    expect(second.app.get(SchemaMigrations).filledAtStart).toEqual(['event-search-words']);
    expect(await total(second, 'harbour')).toBe(2);
    expect(await total(second, 'evening')).toBe(1);
    // The fill derives exactly the rows the writes kept in step, counts included.
    expect(await derivedRows(second)).toEqual(written);
    expect(
      await second.dataSource.query("SELECT name, version FROM derived_stores WHERE name = 'event-search-words'"),
    ).toEqual([{ name: 'event-search-words', version: storeVersion() }]);

    const third = await start();
    expect(third.app.get(SchemaMigrations).filledAtStart).toEqual([]);
  });

  it('fills a stale store through the CLI, once when two runs race', async () => {
    const app = t!;
    await app.dataSource.query("DELETE FROM derived_stores WHERE name = 'event-search-words'");
    const runs = await Promise.all([migrationsRun(database.url), migrationsRun(database.url)]);
    expect(runs.map((r) => r.applied)).toEqual([[], []]);
    expect(runs.flatMap((r) => r.derived_filled)).toEqual(['event-search-words']);
    expect(await total(app, 'harbour')).toBe(2);
    expect((await migrationsRun(database.url)).derived_filled).toEqual([]);
  });

  it('is declared with its migration-free fill: the migration that creates the index fills nothing', async () => {
    const app = t!;
    const migration = AddEventSearchWords1764400000000;
    const runner = app.dataSource.createQueryRunner();
    try {
      await new migration().down(runner);
      await new migration().up(runner);
    } finally {
      await runner.release();
    }
    const [{ n }] = await app.dataSource.query<{ n: number | string }[]>(
      'SELECT COUNT(*) AS n FROM event_search_words',
    );
    expect(Number(n)).toBe(0);
  });
});
