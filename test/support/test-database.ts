import { randomBytes } from 'node:crypto';
import { copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';
import { databasePrefix, TEMPLATE_DATABASE_VARIABLE } from '../runner/template-database.cjs';

export interface TestDatabase {
  url: string;
  kind: 'sqlite' | 'mysql';
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * A copy of the run's migrated template (test/runner/template-database.cjs) instead of an empty database:
   * what an app boot would make of an empty one, without running 27 migrations again for every spec.
   */
  migrated?: boolean;
}

/** The migrated template of this run, when the e2e runner made one (it names it in the environment). */
function templateUrl(options: TestDatabaseOptions): string | null {
  return options.migrated ? (process.env[TEMPLATE_DATABASE_VARIABLE] ?? null) : null;
}

/** Copies every table of `template` into the empty schema `name`: definitions (keys included) and rows. */
async function cloneSchema(admin: Connection, template: string, name: string): Promise<void> {
  const [tables] = await admin.query(
    "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'",
    [template],
  );
  await admin.query(`USE \`${name}\``);
  await admin.query('SET FOREIGN_KEY_CHECKS = 0');
  for (const { name: table } of tables as { name: string }[]) {
    const [[created]] = (await admin.query(`SHOW CREATE TABLE \`${template}\`.\`${table}\``)) as unknown as [
      { 'Create Table': string }[],
    ];
    await admin.query(created['Create Table']);
    await admin.query(`INSERT INTO \`${name}\`.\`${table}\` SELECT * FROM \`${template}\`.\`${table}\``);
  }
  await admin.query('SET FOREIGN_KEY_CHECKS = 1');
}

/**
 * A fresh database for one spec file: its own SQLite file by default, or its own schema on the MySQL/MariaDB
 * server that `DATABASE_URL` points at. Spec files can therefore run in parallel. Empty, unless `migrated`.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL ?? '';
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = templateUrl(options);
  if (base.startsWith('mysql://') || base.startsWith('mariadb://')) {
    const server = new URL(base.replace(/^mariadb:/, 'mysql:'));
    const name = `${databasePrefix()}_test_${suffix}`;
    const connect = () =>
      createConnection({
        host: server.hostname,
        port: Number(server.port || 3306),
        user: decodeURIComponent(server.username),
        password: decodeURIComponent(server.password),
      });
    const admin = await connect();
    try {
      await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      if (template) await cloneSchema(admin, new URL(template).pathname.slice(1), name);
    } finally {
      await admin.end();
    }
    server.pathname = `/${name}`;
    return {
      url: server.toString(),
      kind: 'mysql',
      drop: async () => {
        const conn = await connect();
        await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await conn.end();
      },
    };
  }
  const file = join(tmpdir(), `cal-e2e-${suffix}.sqlite`);
  if (template) copyFileSync(template.replace(/^sqlite:/, ''), file);
  return {
    url: `sqlite:${file}`,
    kind: 'sqlite',
    drop: () => {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
      return Promise.resolve();
    },
  };
}
