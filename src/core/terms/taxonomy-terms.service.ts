import { Injectable } from '@nestjs/common';
import { contentVisible } from '../posts/post-visibility';
import { WriteTransactions } from '../../database/write-transactions';
import { postPolicy } from '../../auth/post-policy';
import { Clock } from '../../common/dates/clock';
import { DomainError } from '../../common/errors/domain-error';
import { sanitizeRichText } from '../../common/html/rich-text';
import type { RequestContext } from '../../common/http/request-context';
import { buildListResponse, resolvePageRequest, type ListResponse } from '../../common/pagination/pagination';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { reason } from '../../common/validation/validation-messages';
import { AppConfig } from '../../config/app-config';
import { isPublic } from '../posts/post-status';
import { PostRecordsService } from '../posts/post-records.service';
import { modifiedAfterCondition } from '../changes/modified-after';
import { ConditionalWrites } from '../changes/conditional-writes';
import type { TermListQueryDto } from './dto/term-list-query.dto';
import { TaxonomyRegistry, type TaxonomyDefinition } from './taxonomy.registry';
import { toTermObject, type TermObject } from './term.mapper';
import { TermSlugsService } from './term-slugs.service';
import { TermEntity } from './term.entity';
import { TermsRepository } from './terms.repository';
import { termNameLockKey } from './term-rows';
import { DatabaseContext } from '../../database/database-context';

export interface TermListQuery extends TermListQueryDto {
  parent?: number;
}

export interface TermInput {
  name?: string;
  description?: string;
  slug?: string;
  /** A term id for hierarchical taxonomies; anything sent to a flat one is refused. */
  parent?: unknown;
}

const parentIdOf = (input: TermInput): number | undefined =>
  typeof input.parent === 'number' ? input.parent : undefined;

/**
 * The REST behaviour of any taxonomy (behaviour.md §9): list, read, create, update, delete. The
 * categories and tags modules are thin wrappers that pass their {@link TaxonomyDefinition}.
 */
@Injectable()
export class TaxonomyTermsService {
  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly terms: TermsRepository,
    private readonly slugs: TermSlugsService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly registry: TaxonomyRegistry,
    private readonly records: PostRecordsService,
    private readonly conditional: ConditionalWrites,
  ) {}

  async list(taxonomy: TaxonomyDefinition, query: TermListQuery, ctx: RequestContext): Promise<ListResponse> {
    this.registry.get(taxonomy.taxonomy);
    const postId = query.event ?? query.post;
    const termsHidden =
      postId !== undefined && !(await this.postTermsVisible(postId, query.event !== undefined ? 'event' : 'post', ctx));
    const unknown: Record<string, string> = {};
    for (const name of ['include', 'exclude'] as const) {
      const missing = await this.terms.missingIds(taxonomy.taxonomy, query[name] ?? []);
      if (missing.length > 0) unknown[name] = reason('unknown_ids', missing.join(', '));
    }
    if (query.parent !== undefined && query.parent !== 0) {
      if ((await this.terms.findInTaxonomy(taxonomy.taxonomy, query.parent)) === null)
        unknown.parent = reason('unknown_id');
    }
    if (Object.keys(unknown).length > 0) throw RequestValidationError.of(unknown);

    const page = resolvePageRequest(query.page, query.per_page, this.config.maxPerPage);
    const order = (query.order ?? 'asc') === 'desc' ? 'DESC' : 'ASC';
    const hideEmpty = query.hide_empty ?? true;
    const { items, total } = termsHidden
      ? { items: [], total: 0 }
      : await this.terms.listForArchive(
          taxonomy.taxonomy,
          {
            search: query.search,
            include: query.include,
            exclude: query.exclude,
            slugs: query.slug,
            parent: query.parent,
            postId,
            hideEmpty,
            changedAfter: modifiedAfterCondition(taxonomy.noun, 't.id', query.modified_after, this.config.siteTimezone),
            orderBy: query.orderby ?? 'name',
            order,
          },
          page,
        );
    const pages = await this.pageUrls(taxonomy, items, ctx);
    return buildListResponse({
      key: taxonomy.restBase,
      items: items.map((t) => toTermObject(t, taxonomy, ctx, pages?.get(t.id))),
      total,
      page,
      collectionUrl: `${ctx.namespaceUrl}/${taxonomy.restBase}`,
      query: {
        search: query.search,
        include: query.include,
        exclude: query.exclude,
        slug: query.slug,
        parent: query.parent,
        post: query.event === undefined ? query.post : undefined,
        event: query.event,
        hide_empty: hideEmpty,
        orderby: query.orderby ?? 'name',
        order: order.toLowerCase(),
        modified_after: query.modified_after,
      },
    });
  }

  async get(taxonomy: TaxonomyDefinition, id: number, ctx: RequestContext): Promise<TermObject> {
    this.registry.get(taxonomy.taxonomy);
    const term = await this.require(taxonomy, id);
    return toTermObject(term, taxonomy, ctx, (await this.pageUrls(taxonomy, [term], ctx))?.get(term.id));
  }

  /**
   * The alias's term routes give each term its page on the site, as the reference does
   * (`/events/category/music/jazz/`: a category's path runs through its parents); null elsewhere.
   */
  private async pageUrls(
    taxonomy: TaxonomyDefinition,
    terms: TermEntity[],
    ctx: RequestContext,
  ): Promise<Map<number, string> | null> {
    if (ctx.dialect !== 'tec') return null;
    const known = new Map(terms.map((t) => [t.id, t]));
    // Parents are read a generation at a time; a tree is a few levels deep (a cycle ends at the bound).
    for (let depth = 0; depth < 100; depth++) {
      const missing = [...known.values()].map((t) => t.parentId).filter((id): id is number => !!id && !known.has(id));
      if (missing.length === 0) break;
      for (const parent of await this.terms.findManyInTaxonomy(taxonomy.taxonomy, [...new Set(missing)])) {
        known.set(parent.id, parent);
      }
    }
    const pathOf = (term: TermEntity): string[] => {
      const path = [term.slug];
      for (let at = term, depth = 0; at.parentId && known.has(at.parentId) && depth < 100; depth++) {
        at = known.get(at.parentId)!;
        path.unshift(at.slug);
      }
      return path;
    };
    const base = `${ctx.siteUrl}/${taxonomy.archivePath ?? taxonomy.noun}`;
    return new Map(terms.map((t) => [t.id, `${base}/${pathOf(t).map(encodeURIComponent).join('/')}/`]));
  }

  /** Terms of the taxonomy by id, as objects (every term is public): the change feed. */
  async objectsByIds(
    taxonomy: TaxonomyDefinition,
    ids: number[],
    ctx: RequestContext,
  ): Promise<Map<number, TermObject>> {
    const terms = await this.terms.findManyInTaxonomy(taxonomy.taxonomy, ids);
    return new Map(terms.map((term) => [term.id, toTermObject(term, taxonomy, ctx)]));
  }

  async create(
    taxonomy: TaxonomyDefinition,
    input: TermInput & { name: string },
    ctx: RequestContext,
  ): Promise<TermObject> {
    this.registry.get(taxonomy.taxonomy);
    this.assertParentAllowed(taxonomy, input.parent);
    const term = await this.transactions.run(async () => {
      const name = input.name.trim();
      await this.db.lockForWrite([termNameLockKey(taxonomy.taxonomy, name)]);
      const parentId = await this.resolveParent(taxonomy, parentIdOf(input), undefined);
      const same = await this.terms.findSameName(taxonomy.taxonomy, name, parentId);
      if (same) throw new DomainError('term_exists', { data: { term_id: same.id } });
      const slug = await this.slugs.uniqueSlug(taxonomy.taxonomy, input.slug || name);
      const saved = await this.db.manager.save(
        this.db.manager.create(TermEntity, {
          taxonomy: taxonomy.taxonomy,
          name,
          slug,
          description: sanitizeRichText(input.description ?? ''),
          parentId,
          count: 0,
        }),
      );
      this.recordChange(taxonomy, saved.id, 'created');
      return saved;
    });
    return toTermObject(term, taxonomy, ctx);
  }

  async update(taxonomy: TaxonomyDefinition, id: number, input: TermInput, ctx: RequestContext): Promise<TermObject> {
    this.registry.get(taxonomy.taxonomy);
    this.assertParentAllowed(taxonomy, input.parent);
    const term = await this.transactions.run(async () => {
      const current = await this.requireWritable(taxonomy, id, ctx);
      const parentId =
        input.parent === undefined ? current.parentId : await this.resolveParent(taxonomy, parentIdOf(input), id);
      const name = input.name === undefined ? current.name : input.name.trim();
      if (name.toLowerCase() !== current.name.toLowerCase() || parentId !== current.parentId) {
        await this.db.lockForWrite([termNameLockKey(taxonomy.taxonomy, name)]);
        const same = await this.terms.findSameName(taxonomy.taxonomy, name, parentId, id);
        if (same) throw new DomainError('term_exists', { data: { term_id: same.id } });
      }
      current.name = name;
      current.parentId = parentId;
      if (input.description !== undefined) current.description = sanitizeRichText(input.description);
      if (input.slug !== undefined)
        current.slug = await this.slugs.uniqueSlug(taxonomy.taxonomy, input.slug || name, id);
      const saved = await this.db.manager.save(current);
      this.recordChange(taxonomy, id, 'updated');
      this.records.recordEmbeddingChanged(await this.terms.postsCarrying(id));
      return saved;
    });
    return toTermObject(term, taxonomy, ctx);
  }

  /** Deletes permanently; children move up to the deleted term's parent; links go with it. */
  async delete(taxonomy: TaxonomyDefinition, id: number, ctx: RequestContext): Promise<TermObject> {
    this.registry.get(taxonomy.taxonomy);
    const deleted = await this.transactions.run(async () => {
      const term = await this.requireWritable(taxonomy, id, ctx);
      this.records.recordEmbeddingChanged(await this.terms.postsCarrying(id));
      for (const child of await this.terms.childIds(term.id)) this.recordChange(taxonomy, child, 'updated');
      await this.terms.reparentChildren(term.id, term.parentId);
      await this.db.manager.delete(TermEntity, { id: term.id });
      this.recordChange(taxonomy, term.id, 'deleted');
      return term;
    });
    return toTermObject(deleted, taxonomy, ctx);
  }

  private recordChange(taxonomy: TaxonomyDefinition, id: number, action: 'created' | 'updated' | 'deleted'): void {
    this.db.recordChange({
      resource: taxonomy.noun,
      resourceId: id,
      action,
      publicBefore: action !== 'created',
      publicAfter: action !== 'deleted',
      authorId: null,
    });
  }

  /**
   * The term a write changes, read after its row was locked (so it stays as read until the write
   * commits), and checked against the request's `If-Match` / `If-Unmodified-Since`.
   */
  private async requireWritable(taxonomy: TaxonomyDefinition, id: number, ctx: RequestContext): Promise<TermEntity> {
    await this.db.manager
      .createQueryBuilder()
      .update(TermEntity)
      .set({ count: () => 'count' })
      .where('id = :id', { id })
      .execute();
    const term = await this.require(taxonomy, id);
    await this.conditional.assert(ctx, {
      resource: taxonomy.noun,
      id,
      representation: () => Promise.resolve(toTermObject(term, taxonomy, ctx)),
    });
    return term;
  }

  private async require(taxonomy: TaxonomyDefinition, id: number): Promise<TermEntity> {
    const term = await this.terms.findInTaxonomy(taxonomy.taxonomy, id);
    if (!term) throw new DomainError('term_not_found');
    return term;
  }

  private assertParentAllowed(taxonomy: TaxonomyDefinition, parent: unknown): void {
    if (parent !== undefined && !taxonomy.hierarchical) throw new DomainError('taxonomy_not_hierarchical');
  }

  /** `0` or absent: top level. Else an existing term of the taxonomy that is not `selfId` or below it. */
  private async resolveParent(
    taxonomy: TaxonomyDefinition,
    parent: number | undefined,
    selfId: number | undefined,
  ): Promise<number | null> {
    if (!parent) return null;
    if ((await this.terms.findInTaxonomy(taxonomy.taxonomy, parent)) === null) {
      throw RequestValidationError.of({ parent: reason('unknown_id') });
    }
    if (selfId !== undefined) {
      if (parent === selfId || (await this.terms.descendantIds(taxonomy.taxonomy, selfId)).has(parent)) {
        throw RequestValidationError.of({ parent: reason('parent_cycle') });
      }
    }
    return parent;
  }

  /**
   * Whether the caller may see the terms of the post a `post`/`event` filter names. Unknown and hidden
   * posts are both 400 (no existence oracle); a password-protected post's terms are blanked in the post,
   * so they are not listed here either.
   */
  private async postTermsVisible(postId: number, param: string, ctx: RequestContext): Promise<boolean> {
    const post = await this.terms.findPostForFilter(postId);
    const readable =
      post !== null &&
      (isPublic(post.status, post.dateUtc, this.clock.nowSqlUtc()) || postPolicy.canReadNonPublic(ctx.user, post));
    if (!post || !readable) throw RequestValidationError.of({ [param]: reason('unknown_id') });
    return contentVisible(ctx.user, post);
  }
}
