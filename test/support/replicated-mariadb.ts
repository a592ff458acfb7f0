import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from 'mysql2/promise';
import { connectAsRoot, haltOwnServer, startOwnServer } from './own-mariadb';

/**
 * A MariaDB primary and a replica with real binlog replication, started for one test file on ports and
 * data directories of their own (`mariadb-install-db`/`mariadbd --no-defaults`), never the shared server
 * on 3306. Stopped and deleted by `stop()`.
 */
export interface ReplicatedMariaDb {
  primaryUrl: string;
  replicaUrl: string;
  primary: Connection;
  replica: Connection;
  /** Stops applying the primary's changes on the replica (`STOP SLAVE SQL_THREAD`): lag on demand. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Waits until the replica has applied everything the primary has written so far. */
  caughtUp(): Promise<void>;
  /** SELECT statements the replica has run (its `Com_select` counter). */
  selectsOnReplica(): Promise<number>;
  /** Stops the replica's server (a replica that went down). */
  stopReplica(): Promise<void>;
  stop(): Promise<void>;
}

const DATABASE = 'cal';

export async function startReplicatedMariaDb(): Promise<ReplicatedMariaDb> {
  const dir = mkdtempSync(join(tmpdir(), 'cal-replication-'));
  const p = await startOwnServer(dir, 'primary', [
    '--server-id=1',
    `--log-bin=${join(dir, 'primary-bin')}`,
    '--binlog-format=ROW',
  ]);
  const r = await startOwnServer(dir, 'replica', ['--server-id=2', '--read-only=1']).catch(async (error: unknown) => {
    await haltOwnServer(p.server);
    throw error;
  });
  const [primaryPort, replicaPort] = [p.port, r.port];
  const stop = async (): Promise<void> => {
    await Promise.all([p.server, r.server].map(haltOwnServer));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const primary = await connectAsRoot(p);
    const replica = await connectAsRoot(r);
    await primary.query(
      `CREATE USER 'repl'@'127.0.0.1' IDENTIFIED BY 'repl'; GRANT REPLICATION SLAVE ON *.* TO 'repl'@'127.0.0.1';
       CREATE USER 'cal'@'127.0.0.1'; GRANT ALL ON *.* TO 'cal'@'127.0.0.1';`,
    );
    await replica.query(
      `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${primaryPort}, MASTER_USER='repl',
       MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos; START SLAVE;`,
    );
    await primary.query(`CREATE DATABASE ${DATABASE} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    const caughtUp = async (): Promise<void> => {
      const [[{ pos }]] = (await primary.query('SELECT @@gtid_binlog_pos AS pos')) as unknown as [[{ pos: string }]];
      // MASTER_GTID_WAIT blocks on the replica until it has applied that position (no polling, no sleep).
      await replica.query('SELECT MASTER_GTID_WAIT(?)', [pos]);
    };
    await caughtUp();
    return {
      // The service connects as an ordinary user: the replica's read_only refuses its writes.
      primaryUrl: `mysql://cal@127.0.0.1:${primaryPort}/${DATABASE}`,
      replicaUrl: `mysql://cal@127.0.0.1:${replicaPort}/${DATABASE}`,
      primary,
      replica,
      pause: async () => void (await replica.query('STOP SLAVE SQL_THREAD')),
      resume: async () => void (await replica.query('START SLAVE SQL_THREAD')),
      caughtUp,
      selectsOnReplica: async () => {
        const [[row]] = (await replica.query("SHOW GLOBAL STATUS LIKE 'Com_select'")) as unknown as [
          [{ Value: string }],
        ];
        return Number(row.Value);
      },
      stopReplica: async () => {
        await replica.end().catch(() => undefined);
        await haltOwnServer(r.server);
      },
      stop: async () => {
        await primary.end().catch(() => undefined);
        await replica.end().catch(() => undefined);
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
