import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { MIGRATIONS } from '../../src/database/migrations';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

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
});
