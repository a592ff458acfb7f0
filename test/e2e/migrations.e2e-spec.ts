import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { MIGRATIONS } from '../../src/database/migrations';
import { CALENDAR_MODULES } from '../../src/app.module';
import { MigrationCommands } from '../../src/database/migration-commands';
import { allMigrations } from '../../src/database/module-migrations';
import { derivedStoresOf, fillDerivedStores } from '../../src/database/derived-stores';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { CreateSpeakers1790000000000 } from '../../examples/speakers/speaker.migration';

const BASE_TABLES = [
  'posts',
  'attachment_details',
  'terms',
  'term_relationships',
  'users',
  'application_passwords',
  'venue_details',
  'organizer_details',
  'event_details',
  'event_venues',
  'event_organizers',
];

describe('migrations', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = new DataSource(buildDataSourceOptions({ url: database.url }));
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const tables = async (): Promise<string[]> => {
    const runner = dataSource.createQueryRunner();
    try {
      const found: string[] = [];
      for (const name of BASE_TABLES) if (await runner.hasTable(name)) found.push(name);
      return found;
    } finally {
      await runner.release();
    }
  };

  it('runs up, down and up again on an empty database', async () => {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    expect(applied.map((m) => m.name)).toEqual(MIGRATIONS.map((M) => new M().name));
    expect(await tables()).toEqual(BASE_TABLES);

    for (let i = 0; i < MIGRATIONS.length; i++) await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await tables()).toEqual([]);

    await dataSource.runMigrations({ transaction: 'each' });
    expect(await tables()).toEqual(BASE_TABLES);
    expect(await dataSource.showMigrations()).toBe(false);
  });

  it('enforces the unique post slug per type', async () => {
    const row = (type: string) => ({
      type,
      slug: 'same',
      title: 't',
      content: '',
      excerpt: '',
      status: 'publish',
      menu_order: 0,
      date_local: '2025-01-01 00:00:00',
      date_utc: '2025-01-01 00:00:00',
      modified_local: '2025-01-01 00:00:00',
      modified_utc: '2025-01-01 00:00:00',
    });
    const insert = (type: string) => dataSource.createQueryBuilder().insert().into('posts').values(row(type)).execute();
    await insert('cal_event');
    await insert('cal_venue');
    await expect(insert('cal_event')).rejects.toThrow();
  });

  it('fills the per-day counts, the change heads and the document rows from the events there are (the word index after them, as a derived store), and fills them again after a failed run', async () => {
    // Back to before the listing counts, whatever came after them.
    const since = MIGRATIONS.findIndex((M) => new M().name === 'AddEventListingDays1764200000000');
    for (let i = since; i < MIGRATIONS.length; i++) await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.query(
      "INSERT INTO terms (taxonomy, name, slug, description, count) VALUES ('cal_events_cat', 'Jazz', 'jazz', '', 0)",
    );
    const [{ id: jazz }] = await dataSource.query<{ id: number }[]>("SELECT id FROM terms WHERE slug = 'jazz'");
    const event = async (
      slug: string,
      status: string,
      start: string,
      end: string,
      hidden = false,
      password = false,
      content = '',
    ) => {
      await dataSource
        .createQueryBuilder()
        .insert()
        .into('posts')
        .values({
          type: 'cal_event',
          slug,
          title: slug,
          content,
          excerpt: '',
          status,
          menu_order: 0,
          date_local: '2025-01-01 00:00:00',
          date_utc: '2025-01-01 00:00:00',
          modified_local: '2025-01-01 00:00:00',
          modified_utc: '2025-01-01 00:00:00',
          password_hash: password ? 'hash' : null,
        })
        .execute();
      const [{ id }] = await dataSource.query<{ id: number }[]>(
        "SELECT id FROM posts WHERE type = 'cal_event' AND slug = ?",
        [slug],
      );
      await dataSource.query('INSERT INTO term_relationships (post_id, term_id, term_order) VALUES (?, ?, 0)', [
        id,
        jazz,
      ]);
      await dataSource
        .createQueryBuilder()
        .insert()
        .into('event_details')
        .values({
          post_id: id,
          start_local: start,
          end_local: end,
          start_utc: start,
          end_utc: end,
          timezone: 'UTC',
          cost: '',
          hide_from_listings: hidden ? 1 : 0,
        })
        .execute();
    };
    await event('a', 'publish', '2030-05-01 19:00:00', '2030-05-01 22:00:00');
    await event('b', 'publish', '2030-05-01 08:00:00', '2030-05-01 09:00:00');
    await event('c', 'publish', '2030-05-01 23:00:00', '2030-05-03 01:00:00');
    await event('d', 'draft', '2030-05-01 19:00:00', '2030-05-01 22:00:00');
    await event('e', 'publish', '2030-05-01 19:00:00', '2030-05-01 22:00:00', true);
    await event('f', 'publish', '2030-05-01 19:00:00', '2030-05-01 22:00:00', false, true, '<p>Secret jazz</p>');
    await event('g', 'publish', '2030-05-02 19:00:00', '2030-05-02 22:00:00', false, false, '<p>Jazz &amp; Blües</p>');
    // As an upgrade runs: the migrations, then the derived stores they created empty (the word index).
    await dataSource.runMigrations({ transaction: 'each' });
    const [{ n: wordsAfterMigrations }] = await dataSource.query<{ n: number }[]>(
      'SELECT COUNT(*) AS n FROM event_search_words',
    );
    expect(Number(wordsAfterMigrations)).toBe(0);
    expect(await fillDerivedStores(dataSource, derivedStoresOf(CALENDAR_MODULES), false)).toEqual([
      'event-search-words',
    ]);
    const days = await dataSource.query<{ start_day: string; end_day: string; listed: number }[]>(
      'SELECT start_day, end_day, listed FROM event_listing_days ORDER BY start_day, end_day',
    );
    expect(days.map((d) => [d.start_day, d.end_day, Number(d.listed)])).toEqual([
      ['2030-05-01', '2030-05-01', 3],
      ['2030-05-01', '2030-05-03', 1],
      ['2030-05-02', '2030-05-02', 1],
    ]);
    const [marks] = await dataSource.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM event_listing_marks');
    expect(Number(marks.n)).toBe(5);
    // Every event there is gets its document row, bodies empty until a read builds them.
    const documents = await dataSource.query<{ generation: number; object_json: string | null }[]>(
      "SELECT d.generation, d.object_json FROM event_documents d INNER JOIN posts p ON p.id = d.post_id AND p.type = 'cal_event'",
    );
    const [events] = await dataSource.query<{ n: number }[]>(
      "SELECT COUNT(*) AS n FROM posts WHERE type = 'cal_event'",
    );
    expect(Number(events.n)).toBeGreaterThanOrEqual(7);
    expect(documents.map((d) => [Number(d.generation), d.object_json])).toEqual(
      Array(Number(events.n)).fill([0, null]),
    );
    const words = await dataSource.query<{ slug: string; word: string; in_title: number; public_match: number }[]>(
      `SELECT p.slug AS slug, w.word AS word, w.in_title AS in_title, w.public_match AS public_match
         FROM event_search_words w INNER JOIN posts p ON p.id = w.post_id
        WHERE p.slug IN ('d', 'f', 'g') ORDER BY p.slug, w.word`,
    );
    // Tags and the sanitiser's escapes are not words; accents fold; a password hides the description from
    // the public, a draft everything.
    expect(words.map((w) => [w.slug, w.word, Number(w.in_title), Number(w.public_match)])).toEqual([
      ['d', 'd', 1, 0],
      ['f', 'f', 1, 1],
      ['f', 'jazz', 0, 0],
      ['f', 'secret', 0, 0],
      ['g', 'blues', 0, 1],
      ['g', 'g', 1, 1],
      ['g', 'jazz', 0, 1],
    ]);
    // The password-protected event is listed, but no term filter matches it for the public.
    const termDays = await dataSource.query<{ term_id: number; start_day: string; end_day: string; listed: number }[]>(
      'SELECT term_id, start_day, end_day, listed FROM event_term_listing_days ORDER BY start_day, end_day',
    );
    expect(termDays.map((d) => [Number(d.term_id), d.start_day, d.end_day, Number(d.listed)])).toEqual([
      [Number(jazz), '2030-05-01', '2030-05-01', 2],
      [Number(jazz), '2030-05-01', '2030-05-03', 1],
      [Number(jazz), '2030-05-02', '2030-05-02', 1],
    ]);
    // Per word, the events the public finds by it per (start day, end day): not the hidden, the draft, or
    // the protected description's words.
    const wordDays = await dataSource.query<{ word: string; start_day: string; end_day: string; matched: number }[]>(
      'SELECT word, start_day, end_day, matched FROM event_search_word_days ORDER BY word, start_day, end_day',
    );
    const expectedWordDays = [
      ['a', '2030-05-01', '2030-05-01', 1],
      ['b', '2030-05-01', '2030-05-01', 1],
      ['blues', '2030-05-02', '2030-05-02', 1],
      ['c', '2030-05-01', '2030-05-03', 1],
      ['f', '2030-05-01', '2030-05-01', 1],
      ['g', '2030-05-02', '2030-05-02', 1],
      ['jazz', '2030-05-02', '2030-05-02', 1],
    ];
    expect(wordDays.map((d) => [d.word, d.start_day, d.end_day, Number(d.matched)])).toEqual(expectedWordDays);

    // A fill that failed after its tables were made (MySQL commits DDL at once) leaves them behind, maybe
    // half filled, with the migration unrecorded: the next start runs it again and starts over.
    // Posts' heads are their modification times; terms keep none, so theirs is the time the migration ran.
    const readHeads = async () =>
      (
        await dataSource.query<{ resource: string; resource_id: number; changed_utc: string }[]>(
          'SELECT resource, resource_id, changed_utc FROM change_heads ORDER BY resource, resource_id',
        )
      ).map((h) => [h.resource, Number(h.resource_id), h.resource === 'event' ? h.changed_utc : 'run time']);
    const heads = await readHeads();
    expect(heads).toContainEqual(['event', expect.any(Number), '2025-01-01 00:00:00']);
    expect(heads).toContainEqual(['category', Number(jazz), 'run time']);
    const fills = [
      'AddEventListingDays1764200000000',
      'AddChangeLog1764600000000',
      'AddEventSearchWordDays1764900000000',
    ];
    await dataSource.query(`DELETE FROM schema_migrations WHERE name IN (${fills.map(() => '?').join(', ')})`, fills);
    await dataSource.query(
      "INSERT INTO event_listing_days (start_day, end_day, listed) VALUES ('2030-06-01', '2030-06-01', 9)",
    );
    await dataSource.query(
      "INSERT INTO event_search_word_days (word, start_day, end_day, matched) VALUES ('zzz', '2030-06-01', '2030-06-01', 9)",
    );
    expect((await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual(fills);
    const refilled = await dataSource.query<{ start_day: string; end_day: string; listed: number }[]>(
      'SELECT start_day, end_day, listed FROM event_listing_days ORDER BY start_day, end_day',
    );
    expect(refilled).toEqual(days);
    const rewordDays = await dataSource.query<{ word: string; start_day: string; end_day: string; matched: number }[]>(
      'SELECT word, start_day, end_day, matched FROM event_search_word_days ORDER BY word, start_day, end_day',
    );
    expect(rewordDays.map((d) => [d.word, d.start_day, d.end_day, Number(d.matched)])).toEqual(expectedWordDays);
    expect(await readHeads()).toEqual(heads);
  });
});

describe('migrations started by several processes at once', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('applies each migration once: the others wait and find nothing left to do', async () => {
    const migrations = allMigrations(CALENDAR_MODULES);
    const runners = [0, 1, 2].map(() => new MigrationCommands(database.url, migrations));
    const silent = () => ({ advance: () => undefined, stop: () => undefined });
    try {
      // On MySQL/MariaDB all three start together and the server's lock orders them; SQLite has one process.
      const results =
        database.kind === 'mysql'
          ? await Promise.all(runners.map((r) => r.run(silent)))
          : [await runners[0].run(silent), await runners[1].run(silent), await runners[2].run(silent)];
      const counts = results.map((applied) => applied.length).sort((a, b) => b - a);
      expect(counts).toEqual([migrations.length, 0, 0]);
      expect((await runners[0].state()).pending).toEqual([]);
    } finally {
      for (const runner of runners) await runner.close();
    }
  });
});

describe('migrations run again after a failure part-way', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    const migrations = [...allMigrations(CALENDAR_MODULES), CreateSpeakers1790000000000];
    dataSource = new DataSource({ ...buildDataSourceOptions({ url: database.url }), migrations });
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  /** Every table with its columns, indices and foreign keys, as TypeORM reads them back. */
  const schema = async () => {
    const runner = dataSource.createQueryRunner();
    try {
      // By name: without names TypeORM reads every database on the server, which other spec files create and
      // drop meanwhile (and which the comparison must not see).
      const rows =
        database.kind === 'mysql'
          ? ((await runner.query(
              'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
            )) as { name: string }[])
          : undefined;
      const names = rows?.map((row) => row.name);
      const tables = await runner.getTables(names);
      return tables
        .filter((t) => !t.name.endsWith('schema_migrations'))
        .map((t) => ({
          name: t.name,
          // Sorted: a column added again comes last, and no query here depends on column order.
          columns: t.columns
            .map((c) => `${c.name} ${c.type} ${c.isNullable ? 'null' : 'not null'} ${c.default ?? ''}`)
            .sort(),
          indices: t.indices.map((i) => `${i.name ?? ''} ${i.columnNames.join()} ${i.isUnique}`).sort(),
          foreignKeys: t.foreignKeys
            .map((f) => `${f.columnNames.join()} → ${f.referencedTableName} ${f.onDelete}`)
            .sort(),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
    } finally {
      await runner.release();
    }
  };

  it('runs every migration again from the top over what the first run made, completing what is missing and keeping what is there', async () => {
    const total = dataSource.migrations.length;
    expect(await dataSource.runMigrations({ transaction: 'each' })).toHaveLength(total);
    const made = await schema();
    expect(made.map((t) => t.name)).toEqual(expect.arrayContaining(['posts', 'leases', 'event_speakers', 'venue_geo']));
    await dataSource.query('UPDATE write_sequence SET value = 41 WHERE id = 1');
    await dataSource.query('UPDATE write_locks SET generation = 1 WHERE id = 3');

    // What a run that stopped part-way on MySQL leaves: some steps made, others not, no record of either.
    const runner = dataSource.createQueryRunner();
    try {
      await runner.dropTable('leases');
      await runner.dropIndex('posts', 'IDX_posts_status_date');
      await runner.dropColumn('write_sequence', 'changed_utc');
    } finally {
      await runner.release();
    }
    await dataSource.query('DELETE FROM write_locks WHERE id >= 200');
    await dataSource.query('DELETE FROM schema_migrations');

    expect(await dataSource.runMigrations({ transaction: 'each' })).toHaveLength(total);
    expect(await schema()).toEqual(made);
    expect(await dataSource.query('SELECT value FROM write_sequence')).toEqual([{ value: 41 }]);
    const locks = await dataSource.query<{ n: number | string; touched: number | string }[]>(
      'SELECT COUNT(*) AS n, SUM(generation) AS touched FROM write_locks',
    );
    expect(locks.map((r) => [Number(r.n), Number(r.touched)])).toEqual([[256, 1]]);
    expect(await dataSource.query('SELECT name, owner FROM leases')).toEqual([{ name: 'future-posts', owner: '' }]);
    expect(await dataSource.showMigrations()).toBe(false);
  });
});
