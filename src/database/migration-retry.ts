import { driverErrorOf } from '../common/errors/driver-errors';

/**
 * Server errors after which running the pending migrations again may well succeed: a deadlock or lock
 * wait with another session, and MariaDB losing the file of its own temporary table while answering a
 * schema question (`Error on delete of '/tmp/#sql-temptable-…MAI'`, errno 1011): a second MariaDB server
 * started with the same tmpdir deletes every `#sql*` file there, as this project's replication test did to
 * CI's shared server until it got a tmpdir of its own. Every migration is written to be run again from the
 * top (`schema-steps.ts`), so a retry finishes what the failed run began.
 */
const RETRYABLE_ERRNOS = new Set([1011, 1205, 1213]);

export function isRetryableMigrationError(error: unknown): boolean {
  const errno = driverErrorOf(error)?.errno;
  return errno !== undefined && RETRYABLE_ERRNOS.has(errno);
}

/** Runs `work`, again after a retryable error, `attempts` times at most; other errors end it at once. */
export async function withMigrationRetries<T>(
  work: () => Promise<T>,
  attempts: number,
  onRetry: (error: unknown, attempt: number) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetryableMigrationError(error)) throw error;
      onRetry(error, attempt);
    }
  }
}
