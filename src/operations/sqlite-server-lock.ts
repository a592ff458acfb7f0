import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who serves a SQLite file: written beside it by the server that does (`<file>-server.lock`). */
interface Holder {
  pid: number;
  host: string;
  started: string;
}

/** A second server on a SQLite file the first still serves: refused, with what to do instead. */
export class SqliteFileInUseError extends Error {}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function readHolder(path: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof holder.pid === 'number' && typeof holder.host === 'string'
      ? { pid: holder.pid, host: holder.host, started: String(holder.started ?? '') }
      : null;
  } catch {
    return null;
  }
}

/**
 * Claims a SQLite file for this server process. SQLite has one writer, and two servers on one file queue
 * behind each other's transactions with nothing to say why (each one's writes wait, then time out). A
 * second server on this host whose first is still running is refused; a lock left by a process that is
 * gone (a crash, kill -9, a container restarted with the same pid) is taken over; one from another host
 * (a shared volume) cannot be checked and is reported with `warn`. The CLI and read-only tools are not
 * servers and need no claim: WAL lets them read beside the server. The lock goes when the process exits.
 */
export function claimSqliteFile(file: string, warn: (message: string) => void): void {
  const path = `${file}-server.lock`;
  const mine: Holder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify(mine));
      closeSync(fd);
      process.once('exit', () => {
        if (readHolder(path)?.pid === mine.pid) unlinkSync(path);
      });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(path);
    if (holder && holder.host === mine.host && holder.pid !== mine.pid && alive(holder.pid)) {
      throw new SqliteFileInUseError(
        `another server (pid ${holder.pid}, started ${holder.started}) serves the SQLite file ${file}: ` +
          'SQLite has one writer, so run one server per file (stop the other one first), or use MySQL ' +
          '(DATABASE_URL=mysql://…) for several instances. The CLI may run beside it; its lock is ' +
          `${path}, removed when that server stops`,
      );
    }
    if (holder && holder.host !== mine.host) {
      warn(
        `the SQLite file ${file} was last claimed by a server on host ${holder.host} (pid ${holder.pid}); ` +
          'if it still runs, two servers write one file: run one, or use MySQL',
      );
    }
    unlinkSync(path);
  }
  throw new SqliteFileInUseError(`could not claim the SQLite file ${file}: ${path} keeps coming back`);
}
