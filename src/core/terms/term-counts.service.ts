import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { PostStatus } from '../posts/post-status';
import { TaxonomyRegistry } from './taxonomy.registry';
import { TermEntity } from './term.entity';
import { DatabaseContext } from '../../database/database-context';

/** Whether a post of this status counts towards its terms' `count` (behaviour.md §9: published posts). */
export const countsTowardTerms = (status: PostStatus): boolean => status === 'publish';

/**
 * Keeps `terms.count` exact: the number of published posts carrying each term. Always called inside the
 * transaction that changed a relationship or a post's status, with the change as a delta.
 *
 * Deltas rather than a recount from the rows: on InnoDB a recount (`UPDATE … SET count = (SELECT COUNT(*)
 * …)`) takes shared locks on other writers' fresh relationship rows, and two events saved in one category
 * deadlock each other. A delta touches only the term rows, in ascending id order in one statement, so
 * concurrent writers queue on the row lock instead. `recount` stays as the repair tool.
 */
@Injectable()
export class TermCountsService {
  /** A term's taxonomy never changes and its id is never reused: what was read once stays true. */
  private readonly taxonomyOf = new LRUCache<number, string>({ max: 10_000 });

  constructor(
    private readonly db: DatabaseContext,
    private readonly taxonomies: TaxonomyRegistry,
  ) {}

  async applyDeltas(deltas: ReadonlyMap<number, number>): Promise<void> {
    const changes = [...deltas].filter(([, delta]) => delta !== 0).sort(([a], [b]) => a - b);
    if (changes.length > 0) await this.recordCountChanges(changes.map(([id]) => id));
    for (let i = 0; i < changes.length; i += 200) {
      const chunk = changes.slice(i, i + 200);
      const params: Record<string, number> = {};
      const cases = chunk.map(([id, delta], n) => {
        params[`id${n}`] = id;
        params[`d${n}`] = delta;
        return `WHEN :id${n} THEN :d${n}`;
      });
      await this.db.manager
        .createQueryBuilder()
        .update(TermEntity)
        .set({ count: () => `count + CASE id ${cases.join(' ')} ELSE 0 END` })
        .where('id IN (:...ids)', { ids: chunk.map(([id]) => id) })
        .setParameters(params)
        .execute();
    }
  }

  /** A term's `count` is part of its object: the change log hears of it as an update of the term. */
  private async recordCountChanges(ids: number[]): Promise<void> {
    const unknown = ids.filter((id) => !this.taxonomyOf.has(id));
    if (unknown.length > 0) {
      const rows = await this.db.manager
        .createQueryBuilder(TermEntity, 't')
        .select(['t.id AS id', 't.taxonomy AS taxonomy'])
        .where('t.id IN (:...unknown)', { unknown })
        .getRawMany<{ id: number; taxonomy: string }>();
      for (const row of rows) this.taxonomyOf.set(Number(row.id), row.taxonomy);
    }
    for (const id of ids) {
      const taxonomy = this.taxonomyOf.get(id);
      if (taxonomy === undefined || !this.taxonomies.has(taxonomy)) continue;
      this.db.recordChange({
        resource: this.taxonomies.get(taxonomy).noun,
        resourceId: id,
        action: 'updated',
        publicBefore: true,
        publicAfter: true,
        authorId: null,
      });
    }
  }

  /** Recomputes counts from the rows (repairs drift after manual database edits); not for request paths. */
  async recount(termIds: Iterable<number>): Promise<void> {
    const ids = [...new Set(termIds)].sort((a, b) => a - b);
    for (let i = 0; i < ids.length; i += 500) {
      await this.db.manager
        .createQueryBuilder()
        .update(TermEntity)
        .set({
          count: () =>
            "(SELECT COUNT(*) FROM term_relationships tr INNER JOIN posts p ON p.id = tr.post_id WHERE tr.term_id = terms.id AND p.status = 'publish')",
        })
        .where('id IN (:...ids)', { ids: ids.slice(i, i + 500) })
        .execute();
    }
  }
}
