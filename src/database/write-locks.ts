import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/** Rows of `write_locks`; two keys that share a row only wait for each other, never go wrong. */
export const WRITE_LOCK_BUCKETS = 256;

export function writeLockBucket(key: string): number {
  return createHash('sha1').update(key).digest().readUInt32BE(0) % WRITE_LOCK_BUCKETS;
}

/**
 * Holds the locks of these buckets until the caller's transaction ends, by updating their rows of
 * `write_locks` in one statement (portable: row locks on MySQL/MariaDB, the single writer on SQLite).
 * For check-then-insert decisions that no unique key can guard; the check must come after the lock, in
 * a transaction that reads committed data (MySQL runs writes at READ COMMITTED, see data-source-options).
 * InnoDB locks the rows of an `IN` list in key order, so writers taking several never wait in a cycle.
 * Callers go through `DatabaseContext.lockForWrite`, which skips the buckets its transaction holds.
 */
export async function lockBuckets(manager: EntityManager, buckets: number[]): Promise<void> {
  if (buckets.length === 0) return;
  await manager.query(
    `UPDATE write_locks SET generation = 1 - generation WHERE id IN (${buckets.map(() => '?').join(', ')})`,
    buckets,
  );
}
