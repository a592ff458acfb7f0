import type { EntityManager } from 'typeorm';

/**
 * The committed write sequence (`write_sequence.value`): every change-log row at or below it has
 * committed (see `ChangeLogWriter`). `purgedThrough`: the last value whose rows were pruned.
 */
export async function committedSequence(manager: EntityManager): Promise<{ value: number; purgedThrough: number }> {
  const row = await manager
    .createQueryBuilder()
    .select(['w.value AS value', 'w.purged_through AS purged'])
    .from('write_sequence', 'w')
    .where('w.id = 1')
    .getRawOne<{ value: number | string; purged: number | string }>();
  return { value: Number(row?.value ?? 0), purgedThrough: Number(row?.purged ?? 0) };
}
