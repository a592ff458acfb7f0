import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { TermEntity } from './term.entity';

/** A term as the raw queries of {@link selectTermRows} select it. */
export interface TermRow {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parentId: number | null;
  count: number;
}

/** A query of terms (alias `t`) that selects the raw columns {@link termFromRow} reads. */
export function selectTermRows(manager: EntityManager): SelectQueryBuilder<TermEntity> {
  return manager
    .createQueryBuilder(TermEntity, 't')
    .select(['t.id AS id', 't.taxonomy AS taxonomy', 't.name AS name', 't.slug AS slug'])
    .addSelect(['t.description AS description', 't.parentId AS parentId', 't.count AS count']);
}

export function termFromRow(row: TermRow): TermEntity {
  return Object.assign(new TermEntity(), {
    id: Number(row.id),
    taxonomy: row.taxonomy,
    name: row.name,
    slug: row.slug,
    description: row.description,
    parentId: row.parentId === null ? null : Number(row.parentId),
    count: Number(row.count),
  });
}

/**
 * The write lock a term's name is created or renamed under (see write-locks.ts): two writers giving a
 * taxonomy the same new name, by the term routes or inline in an event, end with one term, since the
 * second finds the first's after waiting for its commit. Names compare case-insensitively, as the
 * same-name checks do.
 */
export const termNameLockKey = (taxonomy: string, name: string): string =>
  `term:${taxonomy}:${name.trim().toLowerCase()}`;
