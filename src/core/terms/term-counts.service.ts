import { Injectable } from '@nestjs/common';
import type { PostStatus } from '../posts/post-status';
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
  constructor(private readonly db: DatabaseContext) {}

  async applyDeltas(deltas: ReadonlyMap<number, number>): Promise<void> {
    const changes = [...deltas].filter(([, delta]) => delta !== 0).sort(([a], [b]) => a - b);
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
