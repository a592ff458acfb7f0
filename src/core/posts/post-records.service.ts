import { formatSqlDateTime } from '../../database/datetime.transformer';
import { Injectable } from '@nestjs/common';
import { can, type AuthUser } from '../../auth/auth-user';
import { postPolicy } from '../../auth/post-policy';
import { hashSecret } from '../../auth/secret-hashing';
import { UsersService } from '../../auth/users.service';
import { parseDateInput, toSqlDateTime } from '../../common/dates/date-input';
import { SiteTime, type SqlTimestamps } from '../../common/dates/site-time';
import { DomainError } from '../../common/errors/domain-error';
import { sanitizeRichText } from '../../common/html/rich-text';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { reason } from '../../common/validation/validation-messages';
import { TermRelationshipsService } from '../terms/term-relationships.service';
import { AttachmentsService } from './attachments/attachments.service';
import { postErrors } from './post-errors';
import type { PostRef } from './post-ref';
import { PostSlugsService } from './post-slugs.service';
import { CommitSteps } from '../../database/commit-steps';
import { decideStatus, isPublic } from './post-status';
import { PostTypeRegistry, type PostTypeDefinition } from './post-type.registry';
import { PostEntity } from './post.entity';
import type { PostWriteInput, PostWriteResult } from './post-write-input';
import { DatabaseContext } from '../../database/database-context';
import type { ChangeAction } from '../../database/changes/recorded-change';

/** Turns a write's references and HTML into stored values (see `PostRecordsService.resolvers`). */
interface PostValueResolvers {
  author(requested: number | null | undefined): Promise<number | null>;
  image(image: PostWriteInput['image'], authorId: number | null): Promise<number | null | undefined>;
  html(html: string): string;
  hash(password: string): Promise<string>;
}

/** `resolvers` that work out each distinct value once: the records of one `createMany` share theirs. */
function memoizedResolvers(resolvers: PostValueResolvers): PostValueResolvers {
  const memo = new Map<string, unknown>();
  const once = <T>(key: string, work: () => T): T => {
    if (!memo.has(key)) memo.set(key, work());
    return memo.get(key) as T;
  };
  return {
    author: (requested) => once(`author:${String(requested)}`, () => resolvers.author(requested)),
    image: (image, authorId) =>
      once(`image:${typeof image}:${String(image)}:${String(authorId)}`, () => resolvers.image(image, authorId)),
    html: (html) => once(`html:${html}`, () => resolvers.html(html)),
    hash: (password) => once(`hash:${password}`, () => resolvers.hash(password)),
  };
}

/**
 * The post row of every post type: finding it with the caller's rights, creating and updating its
 * shared fields (slug, status rules, dates, author, image, sanitised HTML), trashing and deleting.
 * Post-type services add their companion row in the same transaction.
 */
@Injectable()
export class PostRecordsService {
  constructor(
    private readonly db: DatabaseContext,
    private readonly slugs: PostSlugsService,
    private readonly attachments: AttachmentsService,
    private readonly relationships: TermRelationshipsService,
    private readonly siteTime: SiteTime,
    private readonly users: UsersService,
    private readonly postTypes: PostTypeRegistry,
    private readonly commitSteps: CommitSteps,
  ) {}

  find(def: PostTypeDefinition, ref: PostRef): Promise<PostEntity | null> {
    this.postTypes.get(def.type);
    return this.db.manager.findOneBy(
      PostEntity,
      'id' in ref ? { id: ref.id, type: def.type } : { slug: ref.slug, type: def.type },
    );
  }

  /** A record the caller may read: 404 when there is none, 403 `<noun>-not-accessible` when not theirs to see. */
  async findReadable(def: PostTypeDefinition, ref: PostRef, user: AuthUser | null): Promise<PostEntity> {
    const post = await this.find(def, ref);
    if (!post) throw postErrors.notFound(def);
    if (!isPublic(post.status, post.dateUtc, this.siteTime.now().utc) && !postPolicy.canReadNonPublic(user, post)) {
      throw postErrors.notAccessible(def);
    }
    return post;
  }

  /**
   * A post of any type that the caller may see, for filters that name one (`post_parent`, `event`,
   * `post`): null for unknown ids and hidden ones alike, so a filter is no oracle for what exists.
   */
  async findVisible(id: number, user: AuthUser | null): Promise<PostEntity | null> {
    const post = await this.db.manager.findOneBy(PostEntity, { id });
    if (!post) return null;
    return isPublic(post.status, post.dateUtc, this.siteTime.now().utc) || postPolicy.canReadNonPublic(user, post)
      ? post
      : null;
  }

  /**
   * A record the caller may edit or delete: 404, then 401/403. Inside a write, its row is locked first
   * and the record read after the lock, so what the write (and its `If-Match` check) sees stays current
   * until it commits.
   */
  async findWritable(
    def: PostTypeDefinition,
    ref: PostRef,
    user: AuthUser | null,
    action: 'edit' | 'delete',
  ): Promise<PostEntity> {
    let post: PostEntity | null;
    if (!this.db.inTransaction) post = await this.find(def, ref);
    else if ('id' in ref) {
      await this.lockRow(ref.id);
      post = await this.find(def, ref);
    } else {
      const found = await this.find(def, ref);
      if (found) await this.lockRow(found.id);
      post = found && (await this.find(def, { id: found.id }));
    }
    if (!post) throw postErrors.notFound(def);
    const allowed = action === 'edit' ? postPolicy.canEdit(user, post) : postPolicy.canDelete(user, post);
    if (!allowed) throw new DomainError(user ? 'forbidden' : 'unauthenticated');
    return post;
  }

  /** Takes the post row's write lock until the transaction ends (a no-op update; none for no row). */
  private async lockRow(id: number): Promise<void> {
    await this.db.manager
      .createQueryBuilder()
      .update(PostEntity)
      .set({ menuOrder: () => 'menu_order' })
      .where('id = :id', { id })
      .execute();
  }

  async create(
    def: PostTypeDefinition,
    input: PostWriteInput & { title: string },
    user: AuthUser | null,
  ): Promise<PostEntity> {
    this.postTypes.get(def.type);
    const now = this.siteTime.now();
    const post = await this.newPost(def, input, user, now, this.resolvers(user, now));
    const inserted = await this.slugs.insertWithUniqueSlug(post, input.slug || input.title, def.noun);
    this.recordChange(def, inserted, 'created', false);
    return inserted;
  }

  /**
   * Many new records of one type at once (a series' occurrences): each value they share (author, image,
   * password, HTML) resolved once, their slugs picked together, their rows inserted a few statements at a
   * time and their ids read back by slug, so the work grows with the rows, not with round trips per row.
   */
  async createMany(
    def: PostTypeDefinition,
    inputs: readonly (PostWriteInput & { title: string })[],
    user: AuthUser | null,
  ): Promise<PostEntity[]> {
    if (inputs.length === 1) return [await this.create(def, inputs[0], user)];
    this.postTypes.get(def.type);
    const now = this.siteTime.now();
    const resolve = memoizedResolvers(this.resolvers(user, now));
    const posts: PostEntity[] = [];
    for (const [index, input] of inputs.entries()) {
      if (index > 0 && index % 250 === 0) await this.db.yieldTurn();
      posts.push(await this.newPost(def, input, user, now, resolve));
    }
    const slugs = await this.slugs.uniqueSlugs(
      def.type,
      inputs.map((i) => i.slug || i.title),
      def.noun,
    );
    posts.forEach((post, index) => (post.slug = slugs[index]));
    await this.db.insertOnly(PostEntity, posts);
    const ids = await this.slugs.idsBySlug(def.type, slugs);
    for (const post of posts) {
      const id = ids.get(post.slug);
      if (id === undefined) throw new Error(`the new ${def.noun} ${post.slug} was not found after its insert`);
      post.id = id;
      this.recordChange(def, post, 'created', false);
    }
    return posts;
  }

  /** How a new record's references and HTML become stored values, for one caller at one moment. */
  private resolvers(user: AuthUser | null, now: SqlTimestamps): PostValueResolvers {
    return {
      author: (requested) => this.resolveAuthor(requested, user),
      image: (image, authorId) => this.resolveImage(image, authorId, now),
      html: (html) => sanitizeRichText(html),
      hash: (password) => hashSecret(password),
    };
  }

  /** A new record's row, without its slug and id. */
  private async newPost(
    def: PostTypeDefinition,
    input: PostWriteInput & { title: string },
    user: AuthUser | null,
    now: SqlTimestamps,
    resolve: PostValueResolvers,
  ): Promise<PostEntity> {
    const date = this.publicationDate(input) ?? now;
    const authorId = await resolve.author(input.author);
    return this.db.manager.create(PostEntity, {
      type: def.type,
      slug: '',
      title: input.title.trim(),
      content: resolve.html(input.content ?? ''),
      excerpt: resolve.html(input.excerpt ?? ''),
      status: decideStatus({
        requested: input.status,
        canPublish: postPolicy.canPublish(user),
        dateUtc: date.utc,
        nowUtc: now.utc,
      }),
      authorId,
      parentId: input.parentId ?? null,
      passwordHash: input.passwordHash ?? (input.password ? await resolve.hash(input.password) : null),
      trashedFrom: null,
      featuredImageId: (await resolve.image(input.image, authorId)) ?? null,
      menuOrder: 0,
      dateLocal: date.local,
      dateUtc: date.utc,
      modifiedLocal: now.local,
      modifiedUtc: now.utc,
    });
  }

  /** `post` as `findWritable` read it in this transaction (under its row lock), changed by nothing since. */
  async update(
    def: PostTypeDefinition,
    post: PostEntity,
    input: PostWriteInput,
    user: AuthUser | null,
  ): Promise<PostWriteResult> {
    const now = this.siteTime.now();
    const before = post.status;
    const wasPublic = isPublic(post.status, post.dateUtc, now.utc);
    if (input.title !== undefined) post.title = input.title.trim();
    if (input.content !== undefined) post.content = sanitizeRichText(input.content);
    if (input.excerpt !== undefined) post.excerpt = sanitizeRichText(input.excerpt);
    if (input.slug !== undefined) {
      post.slug = await this.slugs.uniqueSlug(def.type, input.slug || post.title, def.noun, post.id);
    }
    if (input.author !== undefined) post.authorId = await this.resolveAuthor(input.author, user);
    if (input.parentId !== undefined) post.parentId = input.parentId;
    if (input.password !== undefined) post.passwordHash = input.password ? await hashSecret(input.password) : null;
    if (input.passwordHash !== undefined) post.passwordHash = input.passwordHash;
    const date = this.publicationDate(input);
    if (date) {
      post.dateLocal = date.local;
      post.dateUtc = date.utc;
    }
    // A trashed record leaves the trash only when a status is asked for.
    if (input.status !== undefined || (date && post.status !== 'trash')) {
      if (input.status !== undefined) post.trashedFrom = null;
      post.status = decideStatus({
        requested: input.status,
        current: post.status,
        canPublish: postPolicy.canPublish(user),
        dateUtc: post.dateUtc,
        nowUtc: now.utc,
      });
    }
    const image = await this.resolveImage(input.image, post.authorId, now);
    if (image !== undefined) post.featuredImageId = image;
    post.modifiedLocal = now.local;
    post.modifiedUtc = now.utc;
    // Read by findWritable under the row's lock: the whole row is written back without a look-up.
    await this.db.updateRow(PostEntity, post);
    const saved = post;
    const statusChanged = saved.status !== before;
    if (statusChanged) {
      const changes = [{ postId: saved.id, from: before, to: saved.status }];
      await this.relationships.postStatusChanged(changes);
    }
    const action = !statusChanged ? 'updated' : before === 'trash' ? 'untrashed' : 'status_changed';
    this.recordChange(def, saved, action, wasPublic);
    return { post: saved, statusChanged };
  }

  /** Moves a record to the trash: 410 `<noun>-is-in-trash` when it is there already. */
  async trash(def: PostTypeDefinition, post: PostEntity): Promise<PostEntity> {
    if (post.status === 'trash') throw postErrors.inTrash(def);
    const now = this.siteTime.now();
    const before = post.status;
    const wasPublic = isPublic(post.status, post.dateUtc, now.utc);
    post.status = 'trash';
    post.trashedFrom = before;
    post.modifiedLocal = now.local;
    post.modifiedUtc = now.utc;
    // The whole row written back by key: `post` may be a row a list query read (no entity instance).
    await this.db.updateRow(PostEntity, post);
    const saved = post;
    const changes = [{ postId: saved.id, from: before, to: 'trash' as const }];
    await this.relationships.postStatusChanged(changes);
    this.recordChange(def, saved, 'trashed', wasPublic);
    return saved;
  }

  /**
   * Deletes for good (editors and up); companions and links go by cascade, term counts follow. `authorized`:
   * the caller checked a right of its own (the occurrences a series' new rule drops go with the series' edit).
   */
  async destroy(
    def: PostTypeDefinition,
    post: PostEntity,
    user: AuthUser | null,
    options: { authorized?: boolean } = {},
  ): Promise<void> {
    if (!options.authorized && !postPolicy.canForceDelete(user))
      throw new DomainError(user ? 'forbidden' : 'unauthenticated');
    const wasPublic = isPublic(post.status, post.dateUtc, this.siteTime.now().utc);
    await this.commitSteps.beforeDelete(def.noun, [post.id]);
    await this.relationships.detachPosts([post]);
    await this.db.manager.delete(PostEntity, { id: post.id });
    this.db.recordChange({
      resource: def.noun,
      resourceId: post.id,
      action: 'deleted',
      publicBefore: wasPublic,
      publicAfter: false,
      authorId: post.authorId,
    });
  }

  /**
   * A record changed through something it owns (an event's tickets) rather than its own fields: its
   * `modified` moves, so its `ETag` and `Last-Modified` do, and the change log reports it updated.
   */
  async touch(def: PostTypeDefinition, post: PostEntity): Promise<void> {
    const now = this.siteTime.now();
    const wasPublic = isPublic(post.status, post.dateUtc, now.utc);
    // `modified` has whole seconds: a second change within one second moves it on by one, or the object (and
    // so its ETag) would stay as it was although what it owns changed.
    const later = (sql: string) => formatSqlDateTime(new Date(Date.parse(`${sql.replace(' ', 'T')}Z`) + 1000));
    const stale = now.utc <= post.modifiedUtc;
    post.modifiedLocal = stale ? later(post.modifiedLocal) : now.local;
    post.modifiedUtc = stale ? later(post.modifiedUtc) : now.utc;
    await this.db.updateRow(PostEntity, post);
    this.recordChange(def, post, 'updated', wasPublic);
  }

  /**
   * For the change log: records whose objects embed something that changed (the events of a renamed venue
   * or term) changed too, without a write of their own.
   */
  recordEmbeddingChanged(posts: readonly Pick<PostEntity, 'id' | 'type' | 'status' | 'dateUtc' | 'authorId'>[]): void {
    const nowUtc = this.siteTime.now().utc;
    for (const post of posts) {
      if (!this.postTypes.has(post.type)) continue;
      const visible = isPublic(post.status, post.dateUtc, nowUtc);
      this.db.recordChange({
        resource: this.postTypes.get(post.type).noun,
        resourceId: post.id,
        action: 'updated',
        publicBefore: visible,
        publicAfter: visible,
        authorId: post.authorId,
      });
    }
  }

  /** For the change log: what happened to the record, and whether anyone could read it before and after. */
  private recordChange(def: PostTypeDefinition, post: PostEntity, action: ChangeAction, publicBefore: boolean): void {
    this.db.recordChange({
      resource: def.noun,
      resourceId: post.id,
      action,
      publicBefore,
      publicAfter: isPublic(post.status, post.dateUtc, this.siteTime.now().utc),
      authorId: post.authorId,
    });
  }

  private publicationDate(input: PostWriteInput): SqlTimestamps | null {
    if (input.dateUtc !== undefined) {
      const utc = parseDateInput(input.dateUtc, 'utc');
      if (!utc) throw RequestValidationError.of({ date_utc: reason('date_time') });
      return this.siteTime.fromUtc(toSqlDateTime(utc.toUTC()));
    }
    if (input.date !== undefined) {
      const local = parseDateInput(input.date, this.siteTime.zone);
      if (!local) throw RequestValidationError.of({ date: reason('date_time') });
      return this.siteTime.fromUtc(toSqlDateTime(local.toUTC()));
    }
    return null;
  }

  /** The author to store: the caller by default; someone else only for editors, and only if they exist. */
  private async resolveAuthor(requested: number | null | undefined, user: AuthUser | null): Promise<number | null> {
    if (requested === undefined) return user?.id ?? null;
    if (requested === null) {
      if (!can(user, 'edit_others_posts')) throw new DomainError('forbidden');
      return null;
    }
    if (requested !== user?.id && !can(user, 'edit_others_posts')) throw new DomainError('forbidden');
    if (!(await this.users.exists(requested))) throw RequestValidationError.of({ author: reason('unknown_id') });
    return requested;
  }

  private async resolveImage(
    image: PostWriteInput['image'],
    authorId: number | null,
    now: SqlTimestamps,
  ): Promise<number | null | undefined> {
    if (image === undefined) return undefined;
    if (image === null) return null;
    if (typeof image === 'number') {
      if (!(await this.attachments.exists(image))) throw RequestValidationError.of({ image: reason('unknown_id') });
      return image;
    }
    return this.attachments.createFromUrl({ url: image, authorId, now });
  }
}
