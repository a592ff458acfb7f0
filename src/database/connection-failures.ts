import { driverErrorOf } from '../common/errors/driver-errors';

/**
 * Failures of a first connection that waiting can heal: the server is still starting (a container
 * beside this one), restarting, or has no connection to spare. A wrong password, an unknown database or
 * host, or a refused TLS setting never gets better by trying again.
 */
const PASSING_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN', // a name server that did not answer (not ENOTFOUND: a name that does not exist)
  'PROTOCOL_CONNECTION_LOST',
  'SQLITE_BUSY',
]);
const PASSING_ERRNOS = new Set([
  1040, // too many connections
  1053, // server shutdown in progress
]);

/** Whether a failed first connection is worth trying again (`TypeOrmModule`'s `toRetry`). */
export function mayConnectLater(error: unknown): boolean {
  const e = driverErrorOf(error);
  return e !== null && ((e.code !== undefined && PASSING_CODES.has(e.code)) || PASSING_ERRNOS.has(e.errno ?? 0));
}

/** What an operator can do about a failed first connection, when the error says. */
export function connectionFailureHint(error: unknown): string | undefined {
  const e = driverErrorOf(error);
  // The server's errors have positive numbers; Node's own (ECONNREFUSED is -111) are named by their code.
  switch (e?.errno !== undefined && e.errno > 0 ? e.errno : e?.code) {
    case 1049:
      return (
        'create the database first: CREATE DATABASE <name> CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci ' +
        '(README, "Running on MySQL or MariaDB")'
      );
    case 1044:
      return 'the user may not use this database: GRANT ALL PRIVILEGES ON <name>.* TO the user of DATABASE_URL';
    case 1045:
    case 1698:
      return 'the server refused the user or password of DATABASE_URL (a password with @, : or / must be percent-encoded)';
    case 'ECONNREFUSED':
      return "nothing accepts connections at DATABASE_URL's host and port: is the server running there?";
    case 'ENOTFOUND':
      return "DATABASE_URL's host name does not resolve";
    case 'SQLITE_CANTOPEN':
      return 'the SQLite file of DATABASE_URL cannot be opened for writing: it must be a file (or not exist yet) in a folder this user may write';
    case 'SQLITE_READONLY':
    case 'SQLITE_READONLY_DIRECTORY':
      return 'the SQLite file of DATABASE_URL is read-only: the file and its folder (for its -wal and -shm files) must be writable by the user the service runs as';
    default:
      return undefined;
  }
}

/**
 * An error's message, followed by what to do when {@link connectionFailureHint} knows. The message is read
 * by its shape, not `instanceof Error`: a native driver's error class may come from another realm.
 */
export function failureWithHint(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  const hint = connectionFailureHint(error);
  return `${typeof message === 'string' ? message : String(error)}${hint ? `: ${hint}` : ''}`;
}
