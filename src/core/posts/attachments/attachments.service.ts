import { Injectable } from '@nestjs/common';
import type { SqlTimestamps } from '../../../common/dates/site-time';
import { PostSlugsService } from '../post-slugs.service';
import { PostEntity } from '../post.entity';
import { AttachmentDetailsEntity } from './attachment-details.entity';
import { mimeTypeOf } from './image.mapper';
import { RawRows } from '../../../database/raw-rows';
import { ShapedQueries } from '../../../database/shaped-queries';
import { DatabaseContext } from '../../../database/database-context';

export const ATTACHMENT_TYPE = 'attachment';

/** Image attachments: a URL recorded as a post of type `attachment`, referenced by id. */
@Injectable()
export class AttachmentsService {
  constructor(
    private readonly db: DatabaseContext,
    private readonly slugs: PostSlugsService,
    private readonly rows: RawRows,
    private readonly shaped: ShapedQueries,
  ) {}

  /** Records an image URL as a new attachment in the caller's transaction; returns its id. */
  async createFromUrl(input: { url: string; authorId: number | null; now: SqlTimestamps }): Promise<number> {
    const fileName = decodeURIComponent(new URL(input.url).pathname.split('/').pop() ?? '') || 'image';
    const title = fileName.replace(/\.[^.]*$/, '').slice(0, 255);
    const post = await this.slugs.insertWithUniqueSlug(
      this.db.manager.create(PostEntity, {
        type: ATTACHMENT_TYPE,
        slug: '',
        title,
        content: '',
        excerpt: '',
        status: 'publish',
        authorId: input.authorId,
        parentId: null,
        passwordHash: null,
        trashedFrom: null,
        menuOrder: 0,
        dateLocal: input.now.local,
        dateUtc: input.now.utc,
        modifiedLocal: input.now.local,
        modifiedUtc: input.now.utc,
      }),
      title,
      'image',
    );
    await this.db.insertOnly(AttachmentDetailsEntity, {
      postId: post.id,
      url: input.url,
      mimeType: mimeTypeOf(input.url),
    });
    return post.id;
  }

  async exists(id: number): Promise<boolean> {
    return (await this.db.manager.countBy(AttachmentDetailsEntity, { postId: id })) > 0;
  }

  /** Many attachments in one query, keyed by id; lists use it to stay at a fixed number of queries. */
  async findMany(ids: number[]): Promise<Map<number, AttachmentDetailsEntity>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.shaped.rawMany<Record<string, unknown>>('attachments', { ids: unique }, (manager, params) =>
      manager
        .createQueryBuilder(AttachmentDetailsEntity, 'a')
        .select(this.rows.select(AttachmentDetailsEntity, 'a'))
        .where('a.postId IN (:...ids)', params),
    );
    const found = rows.map((row) => this.rows.read(AttachmentDetailsEntity, 'a', row)!);
    return new Map(found.map((r) => [r.postId, r]));
  }
}
