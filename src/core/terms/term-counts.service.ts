import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TermEntity } from './term.entity';

/**
 * Keeps `terms.count` exact: the number of published posts carrying each term. Always called inside
 * the transaction that changed a relationship or a post's status, and recomputed from the rows rather
 * than incremented, so concurrent writers cannot drift it.
 */
@Injectable()
export class TermCountsService {
  async recount(manager: EntityManager, termIds: Iterable<number>): Promise<void> {
    const ids = [...new Set(termIds)];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      await manager
        .createQueryBuilder()
        .update(TermEntity)
        .set({
          count: () =>
            "(SELECT COUNT(*) FROM term_relationships tr INNER JOIN posts p ON p.id = tr.post_id WHERE tr.term_id = terms.id AND p.status = 'publish')",
        })
        .where('id IN (:...ids)', { ids: chunk })
        .execute();
    }
  }
}
