import { deletedRecord, type DeletedRecord } from '../../../../core/posts/deleted-record';
import type { ObjectLiteral } from 'typeorm';
import type { AuthUser } from '../../../../auth/auth-user';
import { sanitizeRichText } from '../../../../common/html/rich-text';
import type { RequestContext } from '../../../../common/http/request-context';
import {
  buildListResponse,
  isBeyondLastPage,
  resolvePageRequest,
  type ListResponse,
} from '../../../../common/pagination/pagination';
import { searchTokens } from '../../../../common/search/search-tokens';
import { queryEchoOf } from '../../../../common/pagination/query-echo';
import { modifiedAfterCondition } from '../../../../core/changes/modified-after';
import { LinkedPostListQueryDto } from './linked-post-list-query.dto';
import { duplicateKey, eventLinksHidden, type LinkedPostsRepository } from './linked-posts.repository';
import { linkedObjectsOf } from './linked-post-objects';
import { objectsByParent, type LinkedRecord, type LinkedRecordsSource } from './linked-record';
import { postErrors } from '../../../../core/posts/post-errors';
import { isInScope, listScopeFor } from '../../../../core/posts/post-query';
import { isPublic } from '../../../../core/posts/post-status';
import { postPolicy } from '../../../../auth/post-policy';
import type { PostWriteInput } from '../../../../core/posts/post-write-input';
import type { LinkedPostTypeDeps, LinkedPostTypeSpec } from './linked-post-type.definition';
import type { PostRef } from '../../../../core/posts/post-ref';
import type { PostTypeDefinition } from '../../../../core/posts/post-type.registry';
import type { PostEntity } from '../../../../core/posts/post.entity';
import { postFieldsInput, type PostFieldsDto } from '../../../../core/posts/dto/post-fields.dto';

/** A single read's representation (and a write's answer): the object and its schema.org `json_ld`. */
export type WithJsonLd<T> = T & { json_ld: Record<string, unknown> };

/**
 * The REST behaviour of a post type that events link to (behaviour.md §8): list with search and event
 * filters, read, create with duplicate avoidance, partial update, trash (unlinking from events) or
 * permanent delete; plus what the events module needs: inline create-or-reuse inside its transaction,
 * link writing, and the linked records of many events in a fixed number of queries.
 */
export class LinkedPostTypeService<
  TDetails extends { postId: number },
  TLink extends ObjectLiteral,
  TObject extends { id: number },
  TUpdate,
  TCreate extends TUpdate,
> {
  constructor(
    private readonly deps: LinkedPostTypeDeps,
    private readonly repository: LinkedPostsRepository<TDetails, TLink>,
    private readonly spec: LinkedPostTypeSpec<TDetails, TObject, TUpdate>,
  ) {}

  async list(query: LinkedPostListQueryDto, ctx: RequestContext): Promise<ListResponse> {
    const linksHidden =
      query.event !== undefined && (await eventLinksHidden(this.deps.records, this.repository, query.event, ctx));
    const scope = listScopeFor(ctx.user, query.status);
    const page = resolvePageRequest(query.page, query.per_page, this.deps.config.maxPerPage);
    const nowUtc = this.deps.siteTime.now().utc;
    const { posts, total } = linksHidden
      ? { posts: [], total: 0 }
      : await this.repository.listForArchive(
          {
            tokens: searchTokens(query.search ?? ''),
            parentId: query.event,
            hasParents: query.has_events,
            onlyWithUpcoming: query.only_with_upcoming ?? false,
            upcomingScope: listScopeFor(ctx.user, undefined),
            changedAfter: modifiedAfterCondition(
              this.spec.def.noun,
              'p.id',
              query.modified_after,
              this.deps.siteTime.zone,
            ),
          },
          scope,
          page,
          nowUtc,
        );
    if (isBeyondLastPage(page, total)) throw postErrors.archivePageNotFound(this.spec.def);
    return buildListResponse({
      key: this.spec.restBase,
      items: await this.toObjects(posts, ctx),
      total,
      page,
      collectionUrl: `${ctx.namespaceUrl}/${this.spec.restBase}`,
      // The type's own list DTO (a module may add parameters to it), as the route validated the query.
      query: queryEchoOf(query instanceof LinkedPostListQueryDto ? query.constructor : LinkedPostListQueryDto, query),
    });
  }

  async get(ref: PostRef, ctx: RequestContext): Promise<WithJsonLd<TObject>> {
    const post = await this.deps.records.findReadable(this.spec.def, ref, ctx.user);
    const [object] = await this.toObjects([post], ctx);
    return this.withJsonLd(object);
  }

  /** Answers with the single GET's representation, so its ETag serves the next If-Match. */
  async create(dto: TCreate, ctx: RequestContext): Promise<WithJsonLd<TObject>> {
    const id = await this.deps.transactions.run(() => this.createOrReuse(dto, ctx.user));
    return this.withJsonLd(await this.objectById(id, ctx));
  }

  async update(ref: PostRef, dto: TUpdate, ctx: RequestContext): Promise<WithJsonLd<TObject>> {
    const id = await this.deps.transactions.run(async () => {
      const post = await this.deps.records.findWritable(this.spec.def, ref, ctx.user, 'edit');
      await this.assertConditions(post, ctx);
      await this.deps.records.update(
        this.spec.def,
        post,
        { ...this.postInput(dto), title: this.spec.nameOf(dto) },
        ctx.user,
      );
      const stored = (await this.repository.detailsOf([post.id])).get(post.id);
      const before = stored && { ...stored };
      const details = stored ?? this.spec.newDetails(post.id);
      this.spec.applyDetails(details, dto);
      await this.repository.saveDetails(details, before);
      await this.writeExtensions(post.id, dto as object);
      this.deps.records.recordEmbeddingChanged(await this.repository.parentsLinkedTo(post.id));
      return post.id;
    });
    return this.withJsonLd(await this.objectById(id, ctx));
  }

  private withJsonLd(object: TObject): WithJsonLd<TObject> {
    return { ...object, json_ld: this.spec.jsonLd(object) };
  }

  /** Trash, unlinking the record from its events; with `force`, delete for good (editors and up). */
  delete(ref: PostRef, force: boolean, ctx: RequestContext): Promise<TObject | DeletedRecord<TObject>> {
    return this.deps.transactions.run(async () => {
      const post = await this.deps.records.findWritable(this.spec.def, ref, ctx.user, 'delete');
      await this.assertConditions(post, ctx);
      // Trashed or deleted, the record leaves the events that embedded it.
      this.deps.records.recordEmbeddingChanged(await this.repository.parentsLinkedTo(post.id));
      if (force) {
        const [before] = await this.toObjects([post], ctx);
        await this.deps.records.destroy(this.spec.def, post, ctx.user);
        return deletedRecord(before);
      }
      const trashed = await this.deps.records.trash(this.spec.def, post);
      await this.repository.unlinkAll(post.id);
      const [after] = await this.toObjects([trashed], ctx);
      return after;
    });
  }

  /** The write lock `createOrReuse` takes for an inline object: its name, as duplicates compare it. */
  writeLockKeyOf(dto: TCreate): string {
    return `${this.spec.def.type}:${duplicateKey(this.spec.nameOf(dto) ?? '')}`;
  }

  /**
   * Creates a record, or returns the id of one with the same name (case-insensitive) and description
   * that the writer can see (duplicate avoidance). Runs in the caller's transaction.
   */
  async createOrReuse(dto: TCreate, user: AuthUser | null): Promise<number> {
    const name = this.spec.nameOf(dto) ?? '';
    const input = this.postInput(dto);
    const nowUtc = this.deps.siteTime.now().utc;
    const scope = listScopeFor(user, undefined);
    const description = sanitizeRichText(input.content ?? '');
    // Two writers creating the same venue at once must end with one: the check and the insert run under
    // a lock on the name, so the second sees the first one's record.
    await this.deps.db.lockForWrite([this.writeLockKeyOf(dto)]);
    const duplicate = await this.repository.findDuplicateId(name, description, scope, nowUtc);
    if (duplicate !== null) return duplicate;
    const post = await this.deps.records.create(this.spec.def, { ...input, title: name }, user);
    const details = this.spec.newDetails(post.id);
    this.spec.applyDetails(details, dto);
    await this.repository.insertDetails(details);
    await this.writeExtensions(post.id, dto as object);
    return post.id;
  }

  /** `If-Match` / `If-Unmodified-Since` against the record as the caller's GET shows it. */
  private assertConditions(post: PostEntity, ctx: RequestContext): Promise<void> {
    return this.deps.conditional.assert(ctx, {
      resource: this.spec.def.noun,
      id: post.id,
      modifiedUtc: post.modifiedUtc,
      representation: () => this.get({ id: post.id }, ctx),
    });
  }

  /** Fields other modules add to this type (`LinkedPostExtension`), in the record's transaction. */
  private async writeExtensions(postId: number, dto: object): Promise<void> {
    for (const extension of this.deps.extensions.of(this.spec.def.type)) await extension.write(postId, dto);
  }

  private postInput(dto: TUpdate): PostWriteInput {
    return this.spec.postInput ? this.spec.postInput(dto) : postFieldsInput(dto as Partial<PostFieldsDto>);
  }

  /** What events need of the type: its create DTO (inline records) and registered definition. */
  get createDto(): new () => object {
    return this.spec.createDto;
  }
  /** The routes' base below the namespace (`venues`): also where a TEC site lists this type. */
  get restBase(): string {
    return this.spec.restBase;
  }

  get postType(): PostTypeDefinition {
    return this.spec.def;
  }

  /** The schema.org description of one object (events embed it in their own). */
  jsonLd(object: TObject): Record<string, unknown> {
    return this.spec.jsonLd(object);
  }

  /** The records of `ids` the caller sees in this type's list, as objects (the change feed). */
  async visibleObjects(ids: number[], ctx: RequestContext): Promise<Map<number, TObject>> {
    const posts = await this.visiblePosts(ids, ctx.user);
    return new Map((await this.toObjects(posts, ctx)).map((o) => [o.id, o]));
  }

  /** Those of `ids` that are not records of this type that the caller may see (filters: hidden = unknown). */
  async notVisible(ids: number[], user: AuthUser | null): Promise<number[]> {
    const visible = new Set((await this.visiblePosts(ids, user)).map((p) => p.id));
    return ids.filter((id) => !visible.has(id));
  }

  /** Those of `ids` that are records of this type the user sees in its list. */
  private async visiblePosts(ids: number[], user: AuthUser | null): Promise<PostEntity[]> {
    const scope = listScopeFor(user, undefined);
    const nowUtc = this.deps.siteTime.now().utc;
    return (await this.repository.postsByIds(ids)).filter((p) => isInScope(scope, p, nowUtc));
  }

  /**
   * Those of `ids` a write may not link: not records of this type, or records the caller may not read
   * (another author's draft). Both are answered alike, so a write is no oracle for what exists.
   */
  async notLinkable(ids: number[], user: AuthUser | null): Promise<number[]> {
    const nowUtc = this.deps.siteTime.now().utc;
    const readable = new Set(
      (await this.repository.postsByIds(ids))
        .filter((p) => isPublic(p.status, p.dateUtc, nowUtc) || postPolicy.canReadNonPublic(user, p))
        .map((p) => p.id),
    );
    return ids.filter((id) => !readable.has(id));
  }

  /** Links an event to these records, in this order (duplicates dropped). */
  setEventLinks(eventId: number, ids: number[], options: { created?: boolean } = {}): Promise<void> {
    return this.repository.setLinks(eventId, [...new Set(ids)], options);
  }

  /** Links events inserted in this transaction to these records, in this order (duplicates dropped). */
  linkNewEvents(eventIds: readonly number[], ids: number[]): Promise<void> {
    return this.repository.addLinks(eventIds, [...new Set(ids)]);
  }

  get linkedRecordsSource(): LinkedRecordsSource {
    return this.repository.linkedRecordsSource;
  }

  /**
   * The objects of records events link to (read by `LinkedRecordsReader`, with their companion rows), by
   * event, in linked order; those the caller may not see left out. A fixed number of queries.
   */
  async objectsOfLinks(links: LinkedRecord<object>[], ctx: RequestContext): Promise<Map<number, TObject[]>> {
    const nowUtc = this.deps.siteTime.now().utc;
    const scope = listScopeFor(ctx.user, undefined);
    const visible = new Map<number, LinkedRecord<object>>();
    for (const link of links) if (isInScope(scope, link.post, nowUtc)) visible.set(link.post.id, link);
    const posts = [...visible.values()].map((v) => v.post);
    const details = new Map(
      [...visible].map(([id, v]) => [id, (v.details as TDetails | null) ?? this.spec.newDetails(id)]),
    );
    const objects = new Map((await this.toObjects(posts, ctx, details)).map((o) => [o.id, o]));
    return objectsByParent(links, objects);
  }

  private async objectById(id: number, ctx: RequestContext): Promise<TObject> {
    const post = await this.deps.records.find(this.spec.def, { id });
    if (!post) throw postErrors.notFound(this.spec.def);
    const [object] = await this.toObjects([post], ctx);
    return object;
  }

  private toObjects(posts: PostEntity[], ctx: RequestContext, known?: Map<number, TDetails>): Promise<TObject[]> {
    return linkedObjectsOf(this.deps, this.repository, this.spec, { posts, ctx, known });
  }
}
