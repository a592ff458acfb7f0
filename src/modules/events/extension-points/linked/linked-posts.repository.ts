import { In, type ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { RequestContext } from '../../../../common/http/request-context';
import type { PageRequest } from '../../../../common/pagination/pagination';
import { RequestValidationError } from '../../../../common/validation/request-validation.error';
import { reason } from '../../../../common/validation/validation-messages';
import type { PostRecordsService } from '../../../../core/posts/post-records.service';
import { contentVisible } from '../../../../core/posts/post-visibility';
import { applyListScope, applyTokenSearchInOneField, type ListScope } from '../../../../core/posts/post-query';
import { scopeCondition, type SqlCondition } from '../../../../core/posts/post-visibility';
import { PostEntity } from '../../../../core/posts/post.entity';
import { DatabaseContext } from '../../../../database/database-context';
import type { ShapedQueries } from '../../../../database/shaped-queries';
import type { LinkedRecordsSource } from './linked-record';

/**
 * Where a linked post type keeps its data: its companion table, and the ordered link table through
 * which parent posts point at it (event_venues: event_id → venue_id).
 */
export interface LinkedPostsTables<TDetails extends { postId: number }, TLink extends ObjectLiteral> {
  /** `posts.type` of the linked records (venues). */
  type: string;
  /** `posts.type` of the records that link to them (events). */
  parentType: string;
  details: new () => TDetails;
  link: new () => TLink;
  /** Link table and its column naming the linked record, for the filter subqueries. */
  linkTable: string;
  linkColumn: string;
  /** Property of the link entity naming the linked record (`venueId`). */
  linkProperty: keyof TLink & string;
  /** SQL expressions searched (`p.` is the post, `d.` the companion row). */
  searchColumns: string[];
}

export interface LinkedArchiveFilter {
  tokens: string[];
  parentId?: number;
  /** true: linked to a parent that is not a draft or pending; false: not linked to any such parent. */
  hasParents?: boolean;
  /** Linked to a parent within `upcomingScope` (one the caller may see) whose start is now or later. */
  onlyWithUpcoming: boolean;
  upcomingScope: ListScope;
  /** `modified_after`. */
  changedAfter?: SqlCondition;
}

/** Names that duplicate avoidance treats as the same (case and accents aside), as MySQL's collation does. */
export function duplicateKey(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/**
 * The `event` filter of a linked list: an event the caller may see (else 400, hidden like unknown), and
 * whether its links are hidden from the caller (a password-protected event blanks them in its object).
 */
export async function eventLinksHidden(
  records: PostRecordsService,
  repository: { parentType: string },
  eventId: number,
  ctx: RequestContext,
): Promise<boolean> {
  const event = await records.findVisible(eventId, ctx.user);
  if (!event || event.type !== repository.parentType) throw RequestValidationError.of({ event: reason('unknown_id') });
  return !contentVisible(ctx.user, event);
}

/**
 * Queries of a post type that other posts link to (venues and organizers, linked from events).
 * Subclasses give the tables; the queries are the same.
 */
export class LinkedPostsRepository<TDetails extends { postId: number }, TLink extends ObjectLiteral> {
  constructor(
    private readonly db: DatabaseContext,
    private readonly shaped: ShapedQueries,
    private readonly tables: LinkedPostsTables<TDetails, TLink>,
  ) {}

  async listForArchive(
    filter: LinkedArchiveFilter,
    scope: ListScope,
    page: PageRequest,
    nowUtc: string,
  ): Promise<{ posts: PostEntity[]; total: number }> {
    const { linkTable, linkColumn } = this.tables;
    const qb = this.db.manager
      .createQueryBuilder(PostEntity, 'p')
      .innerJoin(this.tables.details, 'd', 'd.postId = p.id')
      .where('p.type = :type', { type: this.tables.type });
    applyListScope(qb, 'p', scope, nowUtc);
    applyTokenSearchInOneField(qb, filter.tokens, this.tables.searchColumns);
    if (filter.parentId !== undefined) {
      qb.andWhere(`EXISTS (SELECT 1 FROM ${linkTable} lf WHERE lf.${linkColumn} = p.id AND lf.event_id = :parentId)`, {
        parentId: filter.parentId,
      });
    }
    if (filter.hasParents !== undefined) {
      const linked = `EXISTS (SELECT 1 FROM ${linkTable} lh INNER JOIN posts eh ON eh.id = lh.event_id
        WHERE lh.${linkColumn} = p.id AND eh.status NOT IN ('draft', 'pending', 'trash'))`;
      qb.andWhere(filter.hasParents ? linked : `NOT ${linked}`);
    }
    if (filter.onlyWithUpcoming) {
      const visible = scopeCondition('eu', filter.upcomingScope, nowUtc);
      qb.andWhere(
        `EXISTS (SELECT 1 FROM ${linkTable} lu INNER JOIN posts eu ON eu.id = lu.event_id
          INNER JOIN event_details du ON du.post_id = eu.id
          WHERE lu.${linkColumn} = p.id AND du.start_utc >= :upcomingNow AND ${visible.sql})`,
        { upcomingNow: nowUtc, ...visible.params },
      );
    }
    if (filter.changedAfter) qb.andWhere(filter.changedAfter.sql, filter.changedAfter.params);
    qb.addSelect('LOWER(p.title)', 'sort_key').orderBy('sort_key', 'ASC').addOrderBy('p.id', 'ASC');
    const [posts, total] = await qb.offset(page.offset).limit(page.perPage).getManyAndCount();
    return { posts, total };
  }

  async detailsOf(ids: number[]): Promise<Map<number, TDetails>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.manager.getRepository(this.tables.details).findBy({ postId: In(ids) } as never);
    return new Map(rows.map((r) => [r.postId, r]));
  }

  /** Inserts the companion row of a record just created (no look-up first and no read back, as `save` does). */
  async insertDetails(details: TDetails): Promise<void> {
    await this.db.insertOnly(this.tables.details, details as QueryDeepPartialEntity<TDetails>);
  }

  /**
   * Writes the companion row of a record locked for writing: only the columns that differ from `before`
   * (the row as read), or the whole row when it had none (records imported without one).
   */
  async saveDetails(details: TDetails, before: TDetails | undefined): Promise<void> {
    if (before) await this.db.updateRow(this.tables.details, details, before);
    else await this.insertDetails(details);
  }

  /**
   * The id of the oldest record of the same name (case-insensitive) and description within `scope`: one
   * shaped query per scope (its statuses are part of the SQL; the time and the owner are bound values).
   */
  async findDuplicateId(name: string, description: string, scope: ListScope, nowUtc: string): Promise<number | null> {
    const { type } = this.tables;
    const own = scope.ownerId !== undefined;
    const rows = await this.shaped.rawMany<{ id: number | string }>(
      `findDuplicate:${type}:${scope.statuses.join(',')}:${own ? 'own' : 'all'}`,
      { type, name: name.trim().toLowerCase(), description, now: nowUtc, ...(own ? { owner: scope.ownerId } : {}) },
      (manager, params) => {
        // The shape's markers stand in for the owner and the time, so the scope's SQL binds them per call.
        const owner = params.owner as number | undefined;
        const visible = scopeCondition('p', { statuses: scope.statuses, ownerId: owner }, params.now as string);
        return manager
          .createQueryBuilder()
          .select('p.id', 'id')
          .from(PostEntity, 'p')
          .where('p.type = :type', params)
          .andWhere('LOWER(p.title) = :name', params)
          .andWhere('p.content = :description', params)
          .andWhere(visible.sql, visible.params)
          .orderBy('p.id', 'ASC')
          .limit(1);
      },
    );
    return rows.length === 0 ? null : Number(rows[0].id);
  }

  /** `posts.type` of the records that link to these (events). */
  get parentType(): string {
    return this.tables.parentType;
  }

  postsByIds(ids: number[]): Promise<PostEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.manager.findBy(PostEntity, { id: In(ids), type: this.tables.type });
  }

  /** Replaces a parent's links with `linkedIds`, in that order. */
  async setLinks(parentId: number, linkedIds: number[], options: { created?: boolean } = {}): Promise<void> {
    if (!options.created) await this.db.manager.getRepository(this.tables.link).delete({ eventId: parentId } as never);
    await this.addLinks([parentId], linkedIds);
  }

  /** Links each of `parentIds` (which have none of these links yet) to `linkedIds`, in this order. */
  async addLinks(parentIds: readonly number[], linkedIds: readonly number[]): Promise<void> {
    await this.db.insertOnly(
      this.tables.link,
      parentIds.flatMap((eventId) =>
        linkedIds.map((id, sortOrder) => ({ eventId, [this.tables.linkProperty]: id, sortOrder })),
      ) as never,
    );
  }

  /** The parents (events) that link to a record, for the change log when the record changes. */
  parentsLinkedTo(linkedId: number): Promise<PostEntity[]> {
    return this.db.manager
      .createQueryBuilder(PostEntity, 'p')
      .innerJoin(this.tables.linkTable, 'l', 'l.event_id = p.id')
      .where(`l.${this.tables.linkColumn} = :linkedId`, { linkedId })
      .getMany();
  }

  async unlinkAll(linkedId: number): Promise<void> {
    await this.db.manager.getRepository(this.tables.link).delete({ [this.tables.linkProperty]: linkedId } as never);
  }

  /** Where this type's records and links are read from, for every link type's records in one query. */
  get linkedRecordsSource(): LinkedRecordsSource {
    const { type, details, linkTable, linkColumn } = this.tables;
    return { type, details, linkTable, linkColumn };
  }
}
