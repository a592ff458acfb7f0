import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { PageRequest } from '../../common/pagination/pagination';
import { LIKE_ESCAPE, likeContains } from '../../database/like';
import { PostEntity } from '../posts/post.entity';
import type { SqlCondition } from '../posts/post-visibility';
import { TermRelationshipEntity } from './term-relationship.entity';
import { TermEntity } from './term.entity';
import { DatabaseContext } from '../../database/database-context';

export const TERM_ORDER_FIELDS = ['id', 'name', 'slug', 'count', 'description'] as const;
export type TermOrderField = (typeof TERM_ORDER_FIELDS)[number];

export interface TermArchiveFilter {
  search?: string;
  include?: number[];
  exclude?: number[];
  slugs?: string[];
  /** 0: top-level terms only. */
  parent?: number;
  postId?: number;
  hideEmpty: boolean;
  /** `modified_after`. */
  changedAfter?: SqlCondition;
  orderBy: TermOrderField;
  order: 'ASC' | 'DESC';
}

/** Queries on the `terms` table, named by what they are for. */
@Injectable()
export class TermsRepository {
  constructor(private readonly db: DatabaseContext) {}

  /** The current `count` of each of `ids` (missing: deleted). */
  async countsOf(ids: readonly number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.manager.query<{ id: number | string; count: number | string }[]>(
      `SELECT id, count FROM terms WHERE id IN (${ids.map(() => '?').join(', ')})`,
      [...ids],
    );
    return new Map(rows.map((r) => [Number(r.id), Number(r.count)]));
  }

  findInTaxonomy(taxonomy: string, id: number): Promise<TermEntity | null> {
    return this.db.manager.getRepository(TermEntity).findOneBy({ id, taxonomy });
  }

  async listForArchive(
    taxonomy: string,
    filter: TermArchiveFilter,
    page: PageRequest,
  ): Promise<{ items: TermEntity[]; total: number }> {
    const qb = this.db.manager.createQueryBuilder(TermEntity, 't').where('t.taxonomy = :taxonomy', { taxonomy });
    if (filter.search !== undefined) {
      const pattern = likeContains(filter.search.toLowerCase());
      qb.andWhere(`(LOWER(t.name) LIKE :search ${LIKE_ESCAPE} OR LOWER(t.slug) LIKE :search ${LIKE_ESCAPE})`, {
        search: pattern,
      });
    }
    if (filter.include) qb.andWhere('t.id IN (:...include)', { include: filter.include });
    if (filter.exclude) qb.andWhere('t.id NOT IN (:...exclude)', { exclude: filter.exclude });
    if (filter.slugs) qb.andWhere('t.slug IN (:...slugs)', { slugs: filter.slugs });
    if (filter.parent !== undefined) {
      if (filter.parent === 0) qb.andWhere('t.parentId IS NULL');
      else qb.andWhere('t.parentId = :parent', { parent: filter.parent });
    }
    if (filter.postId !== undefined) {
      qb.innerJoin(TermRelationshipEntity, 'tr', 'tr.termId = t.id AND tr.postId = :postId', { postId: filter.postId });
    }
    if (filter.hideEmpty) qb.andWhere('t.count > 0');
    if (filter.changedAfter) qb.andWhere(filter.changedAfter.sql, filter.changedAfter.params);
    // Text is sorted case-insensitively on every dialect (SQLite compares bytes, MySQL by collation).
    if (filter.orderBy === 'id' || filter.orderBy === 'count') {
      qb.orderBy(`t.${filter.orderBy}`, filter.order);
    } else {
      qb.addSelect(`LOWER(t.${filter.orderBy})`, 'sort_key').orderBy('sort_key', filter.order);
    }
    qb.addOrderBy('t.id', filter.order);
    const [items, total] = await qb.offset(page.offset).limit(page.perPage).getManyAndCount();
    return { items, total };
  }

  /** Those of `ids` that are not terms of the taxonomy. */
  async missingIds(taxonomy: string, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const found = await this.db.manager.find(TermEntity, { select: { id: true }, where: { taxonomy, id: In(ids) } });
    const present = new Set(found.map((t) => t.id));
    return ids.filter((id) => !present.has(id));
  }

  /** A term of the same name (case-insensitive) under the same parent, other than `excludeId`. */
  async findSameName(
    taxonomy: string,
    name: string,
    parentId: number | null,
    excludeId?: number,
  ): Promise<TermEntity | null> {
    const qb = this.db.manager
      .createQueryBuilder(TermEntity, 't')
      .where('t.taxonomy = :taxonomy', { taxonomy })
      .andWhere('LOWER(t.name) = :name', { name: name.toLowerCase() });
    if (parentId === null) qb.andWhere('t.parentId IS NULL');
    else qb.andWhere('t.parentId = :parentId', { parentId });
    if (excludeId !== undefined) qb.andWhere('t.id <> :excludeId', { excludeId });
    return qb.getOne();
  }

  /** Every term below `id`, level by level (a hierarchy is shallow; one query per level). */
  async descendantIds(taxonomy: string, id: number): Promise<Set<number>> {
    const found = new Set<number>();
    let frontier = [id];
    while (frontier.length > 0) {
      const children = await this.db.manager.find(TermEntity, {
        select: { id: true },
        where: { taxonomy, parentId: In(frontier) },
      });
      frontier = children.map((c) => c.id).filter((c) => !found.has(c));
      frontier.forEach((c) => found.add(c));
    }
    return found;
  }

  findManyInTaxonomy(taxonomy: string, ids: number[]): Promise<TermEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.db.manager.findBy(TermEntity, { taxonomy, id: In(ids) });
  }

  /** The ids of a term's direct children. */
  async childIds(id: number): Promise<number[]> {
    const rows = await this.db.manager.find(TermEntity, { select: { id: true }, where: { parentId: id } });
    return rows.map((r) => r.id);
  }

  /** The posts that carry a term, with what the change log needs of them. */
  postsCarrying(termId: number): Promise<PostEntity[]> {
    return this.db.manager
      .createQueryBuilder(PostEntity, 'p')
      .innerJoin(TermRelationshipEntity, 'tr', 'tr.postId = p.id')
      .where('tr.termId = :termId', { termId })
      .getMany();
  }

  /** Moves the children of a term to `newParentId` (its own parent) before it is deleted. */
  async reparentChildren(id: number, newParentId: number | null): Promise<void> {
    await this.db.manager.update(TermEntity, { parentId: id }, { parentId: newParentId });
  }

  /** The post a `post`/`event` filter names, with what visibility checks need; null when there is none. */
  findPostForFilter(
    postId: number,
  ): Promise<Pick<PostEntity, 'id' | 'status' | 'authorId' | 'dateUtc' | 'passwordHash'> | null> {
    return this.db.manager.findOne(PostEntity, {
      select: { id: true, status: true, authorId: true, dateUtc: true, passwordHash: true },
      where: { id: postId },
    });
  }
}
