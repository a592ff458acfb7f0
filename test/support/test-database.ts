import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';

export interface TestDatabase {
  url: string;
  kind: 'sqlite' | 'mysql';
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one spec file: its own SQLite file by default, or its own schema on the
 * MySQL/MariaDB server that `DATABASE_URL` points at. Spec files can therefore run in parallel.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL ?? '';
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  if (base.startsWith('mysql://') || base.startsWith('mariadb://')) {
    const server = new URL(base.replace(/^mariadb:/, 'mysql:'));
    const name = `cal_test_${suffix}`;
    const admin = await createConnection({
      host: server.hostname,
      port: Number(server.port || 3306),
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
    });
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
    server.pathname = `/${name}`;
    return {
      url: server.toString(),
      kind: 'mysql',
      drop: async () => {
        const conn = await createConnection({
          host: server.hostname,
          port: Number(server.port || 3306),
          user: decodeURIComponent(server.username),
          password: decodeURIComponent(server.password),
        });
        await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await conn.end();
      },
    };
  }
  const file = join(tmpdir(), `cal-e2e-${suffix}.sqlite`);
  return {
    url: `sqlite:${file}`,
    kind: 'sqlite',
    drop: () => {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
      return Promise.resolve();
    },
  };
}
