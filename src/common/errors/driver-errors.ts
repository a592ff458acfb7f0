import { QueryFailedError } from 'typeorm';
import { DomainError } from './domain-error';

interface DriverErrorShape {
  code?: string;
  errno?: number;
}

export function driverErrorOf(error: unknown): DriverErrorShape | null {
  if (error instanceof QueryFailedError) return (error.driverError ?? {}) as DriverErrorShape;
  if (typeof error === 'object' && error !== null && ('code' in error || 'errno' in error)) {
    return error as DriverErrorShape;
  }
  return null;
}

/** MySQL/MariaDB 1062, SQLite SQLITE_CONSTRAINT_UNIQUE or _PRIMARYKEY. */
export function isUniqueViolation(error: unknown): boolean {
  const e = driverErrorOf(error);
  return (
    e !== null &&
    (e.errno === 1062 ||
      e.code === 'ER_DUP_ENTRY' ||
      e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
      e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
  );
}

/** MySQL/MariaDB 1451/1452, SQLite SQLITE_CONSTRAINT_FOREIGNKEY. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = driverErrorOf(error);
  return e !== null && (e.errno === 1451 || e.errno === 1452 || e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY');
}

const UNAVAILABLE_ERRNOS = new Set([
  1205, // lock wait timeout
  1213, // deadlock
  1021, // disk full
  1114, // table is full
  1142, // command denied (a read-only account)
  1290, // --read-only / --super-read-only
  1836, // read-only mode
  1040, // too many connections
]);
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT', // a statement past DB_QUERY_TIMEOUT_SECONDS
  'ETIMEDOUT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'WRITE_QUEUE_TIMEOUT', // the SQLite writer was busy for longer than a statement may take
  'POOL_NOEXIST', // every read replica was taken out of the pool (mysql2 PoolCluster)
  'POOL_NONEONLINE',
]);

/**
 * The database cannot do this now: lock waits and deadlocks that outlived the retries, a lost, refused or
 * frozen connection, a full disk, a read-only server or file. Not the client's fault: 503, retry later.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  const e = driverErrorOf(error);
  if (e === null) return false;
  if (e.errno !== undefined && UNAVAILABLE_ERRNOS.has(e.errno)) return true;
  return e.code !== undefined && (UNAVAILABLE_CODES.has(e.code) || /^SQLITE_(IOERR|READONLY|FULL)/.test(e.code));
}

/**
 * A conflict between concurrent writers that running the whole transaction again resolves: a deadlock
 * (1213), a lock wait timeout (1205), a row changed under a snapshot (MariaDB 1020), a busy SQLite file,
 * or a unique key another writer took first (the retry sees its row and decides again: reuse the term,
 * pick the next slug, answer `term_exists`).
 */
export function isRetryableWriteConflict(error: unknown): boolean {
  const e = driverErrorOf(error);
  if (e === null) return false;
  return (
    e.errno === 1213 ||
    e.errno === 1205 ||
    e.errno === 1020 ||
    e.code === 'SQLITE_BUSY' ||
    e.code === 'SQLITE_BUSY_SNAPSHOT' ||
    isUniqueViolation(error)
  );
}

/**
 * The one translation of driver errors into API errors. A constraint that a service's own checks
 * should have caught first means a concurrent write won: the client gets 409 and may retry.
 */
export function translateDriverError(error: unknown): DomainError | null {
  if (isUniqueViolation(error) || isForeignKeyViolation(error)) return new DomainError('conflict');
  if (isTransientDatabaseError(error)) return new DomainError('service_unavailable');
  return null;
}
