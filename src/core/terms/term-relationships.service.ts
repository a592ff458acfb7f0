import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TermCountsService } from './term-counts.service';
import { TermRelationshipEntity } from './term-relationship.entity';
import { TermEntity } from './term.entity';

interface TermRow {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parentId: number | null;
  count: number;
}

function termFromRow(row: TermRow): TermEntity {
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

/** Which posts carry which terms. Every change recounts the terms it touched, in the caller's transaction. */
@Injectable()
export class TermRelationshipsService {
  constructor(private readonly counts: TermCountsService) {}

  /** Replaces a post's terms of one taxonomy with `termIds`, in that order. */
  async setPostTerms(manager: EntityManager, postId: number, taxonomy: string, termIds: number[]): Promise<void> {
    const current = await manager
      .createQueryBuilder(TermRelationshipEntity, 'tr')
      .innerJoin(TermEntity, 't', 't.id = tr.termId')
      .select('tr.termId', 'termId')
      .where('tr.postId = :postId', { postId })
      .andWhere('t.taxonomy = :taxonomy', { taxonomy })
      .getRawMany<{ termId: number }>();
    const before = current.map((r) => Number(r.termId));
    const wanted = [...new Set(termIds)];
    if (before.length > 0) {
      await manager
        .createQueryBuilder()
        .delete()
        .from(TermRelationshipEntity)
        .where('post_id = :postId', { postId })
        .andWhere('term_id IN (:...ids)', { ids: before })
        .execute();
    }
    if (wanted.length > 0) {
      await manager.insert(
        TermRelationshipEntity,
        wanted.map((termId, termOrder) => ({ postId, termId, termOrder })),
      );
    }
    await this.counts.recount(manager, [...before, ...wanted]);
  }

  /** Term ids carried by any of the posts. */
  async termIdsOfPosts(manager: EntityManager, postIds: number[]): Promise<number[]> {
    if (postIds.length === 0) return [];
    const rows = await manager
      .createQueryBuilder(TermRelationshipEntity, 'tr')
      .select('DISTINCT tr.termId', 'termId')
      .where('tr.postId IN (:...postIds)', { postIds })
      .getRawMany<{ termId: number }>();
    return rows.map((r) => Number(r.termId));
  }

  /** Unlinks posts from all their terms and recounts those terms; call before deleting posts for good. */
  async detachPosts(manager: EntityManager, postIds: number[]): Promise<void> {
    const termIds = await this.termIdsOfPosts(manager, postIds);
    if (termIds.length === 0) return;
    await manager
      .createQueryBuilder()
      .delete()
      .from(TermRelationshipEntity)
      .where('post_id IN (:...postIds)', { postIds })
      .execute();
    await this.counts.recount(manager, termIds);
  }

  /** After a post's status changed (published, unpublished, trashed), its terms' counts follow. */
  async postStatusChanged(manager: EntityManager, postIds: number[]): Promise<void> {
    await this.counts.recount(manager, await this.termIdsOfPosts(manager, postIds));
  }

  /**
   * The terms of many posts in one query, grouped by post id, each list in the stored order.
   * List routes use this so the query count does not grow with the page size.
   */
  async termsOfPosts(
    manager: EntityManager,
    postIds: number[],
    taxonomies: readonly string[],
  ): Promise<Map<number, TermEntity[]>> {
    const byPost = new Map<number, TermEntity[]>();
    if (postIds.length === 0 || taxonomies.length === 0) return byPost;
    const rows = await manager
      .createQueryBuilder(TermEntity, 't')
      .innerJoin(TermRelationshipEntity, 'tr', 'tr.termId = t.id')
      .select('tr.postId', 'postId')
      .addSelect(['t.id AS id', 't.taxonomy AS taxonomy', 't.name AS name', 't.slug AS slug'])
      .addSelect(['t.description AS description', 't.parentId AS parentId', 't.count AS count'])
      .where('tr.postId IN (:...postIds)', { postIds })
      .andWhere('t.taxonomy IN (:...taxonomies)', { taxonomies: [...taxonomies] })
      .orderBy('tr.termOrder', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .getRawMany<TermRow & { postId: number }>();
    for (const row of rows) {
      const postId = Number(row.postId);
      const list = byPost.get(postId) ?? [];
      list.push(termFromRow(row));
      byPost.set(postId, list);
    }
    return byPost;
  }
}
