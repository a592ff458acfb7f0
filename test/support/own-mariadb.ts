import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';
import { freePort } from './free-port';

/**
 * A MariaDB server of a test's own, on its own port, data directory, socket and temporary directory
 * (`mariadb-install-db`/`mariadbd --no-defaults`), never the shared server on 3306.
 */
export interface OwnServer {
  server: ChildProcess;
  port: number;
  socket: string;
  log: () => string;
}

/**
 * Installs a fresh data directory under `dir` and starts a server on it, on a port the system had free
 * (`freePort`); should another process bind that port before the server does, it starts again on another.
 * Resolves once the server answers on its socket. `extra` are more server options.
 */
export async function startOwnServer(dir: string, name: string, extra: string[] = []): Promise<OwnServer> {
  const data = join(dir, name);
  // A temporary directory of its own: MariaDB deletes every `#sql*` file in its tmpdir when it starts (and
  // so does the install's bootstrap), which in the shared /tmp are the live temporary tables of the
  // shared server on 3306 and of any other server a test starts.
  const temporary = join(dir, `${name}-tmp`);
  mkdirSync(temporary);
  const install = spawnSync(
    'mariadb-install-db',
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--tmpdir=${temporary}`,
      '--user=root',
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`mariadb-install-db failed: ${install.stderr}`);
  for (let attempt = 1; ; attempt++) {
    const own = spawnServer(dir, name, data, temporary, await freePort(), extra);
    try {
      await (await connectAsRoot(own)).end();
      return own;
    } catch (error) {
      if (attempt >= 5 || !/already in use|another mysqld server running/i.test(own.log())) throw error;
    }
  }
}

function spawnServer(
  dir: string,
  name: string,
  data: string,
  temporary: string,
  port: number,
  extra: string[],
): OwnServer {
  let output = '';
  const socket = join(dir, `${name}.sock`);
  const server = spawn(
    '/usr/sbin/mariadbd',
    [
      '--no-defaults',
      '--user=root',
      `--datadir=${data}`,
      `--tmpdir=${temporary}`,
      `--port=${port}`,
      `--socket=${socket}`,
      `--pid-file=${join(dir, `${name}.pid`)}`,
      '--bind-address=127.0.0.1',
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=32M',
      '--character-set-server=utf8mb4',
      '--collation-server=utf8mb4_unicode_ci',
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  server.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  server.stdout?.resume();
  return { server, port, socket, log: () => output };
}

/** A root connection over the server's Unix socket (secure transport to MariaDB), once it answers. */
export async function connectAsRoot(own: OwnServer): Promise<Connection> {
  for (;;) {
    if (own.server.exitCode !== null) throw new Error(`mariadbd on ${own.port} exited: ${own.log()}`);
    try {
      return await createConnection({ socketPath: own.socket, user: 'root', multipleStatements: true });
    } catch {
      // Not listening yet: a freshly installed server takes a moment.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export function haltOwnServer(server: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) return resolve();
    server.once('exit', () => resolve());
    server.kill('SIGTERM');
  });
}
