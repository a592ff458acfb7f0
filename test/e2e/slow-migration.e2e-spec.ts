import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Module } from '@nestjs/common';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CALENDAR_MODULES } from '../../src/app.module';
import { WithMigrations } from '../../src/database/module-migrations';
import { createTestApp, type TestApp } from '../support/create-test-app';

/**
 * A migration that outlasts the service's statement timeout (MySQL: DB_QUERY_TIMEOUT_SECONDS, here 1 s):
 * filling a new table from a million events takes that long. On SQLite there is no such timeout; the
 * migration just has to apply.
 */
class SlowFill1799000000000 implements MigrationInterface {
  name = 'SlowFill1799000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'mysql') await queryRunner.query('SELECT SLEEP(2.5)');
    await queryRunner.query("UPDATE terms SET description = 'filled' WHERE 1 = 0");
  }
  async down(): Promise<void> {}
}

@WithMigrations(SlowFill1799000000000)
@Module({})
class SlowFillModule {}

describe('migrations at start', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      modules: [...CALENDAR_MODULES, SlowFillModule],
      env: { DB_QUERY_TIMEOUT_SECONDS: '1' },
    });
  });
  afterAll(() => t.close());

  it('are not cut off by the statement timeout of the service’s connections', async () => {
    const applied = await t.dataSource.query<{ name: string }[]>('SELECT name FROM schema_migrations');
    expect(applied.map((m) => m.name)).toContain('SlowFill1799000000000');
    await t.http.get('/health/ready').expect(200);
  });
});
