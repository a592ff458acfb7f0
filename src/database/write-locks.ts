import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/** Rows of `write_locks`; two keys that share a row only wait for each other, never go wrong. */
export const WRITE_LOCK_BUCKETS = 256;

export function writeLockBucket(key: string): number {
  return createHash('sha1').update(key).digest().readUInt32BE(0) % WRITE_LOCK_BUCKETS;
}

/**
 * Holds a lock named `key` until the caller's transaction ends, by updating its row of `write_locks`
 * (portable: a row lock on MySQL/MariaDB, the single writer on SQLite). For check-then-insert decisions
 * that no unique key can guard; the check must come after the lock, in a transaction that reads
 * committed data (MySQL runs writes at READ COMMITTED, see data-source-options).
 */
export async function lockForWrite(manager: EntityManager, key: string): Promise<void> {
  await manager
    .createQueryBuilder()
    .update('write_locks')
    .set({ generation: () => '1 - generation' })
    .where('id = :id', { id: writeLockBucket(key) })
    .execute();
}
