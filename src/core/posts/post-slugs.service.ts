import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../../common/errors/driver-errors';
import { PostEntity } from './post.entity';
import { pickAvailableSlug, slugify } from './slugs';
import { DatabaseContext } from '../../database/database-context';

// Slugs tried in one transaction before the race is left to the whole-transaction retry.
const MAX_SLUG_TRIES = 25;

const baseSlug = (desired: string, fallback: string): string => slugify(desired) || slugify(fallback) || 'post';

/** Post slugs: unique within their post type, `-2`, `-3`… on collision, the post being updated excluded. */
@Injectable()
export class PostSlugsService {
  constructor(private readonly db: DatabaseContext) {}

  /**
   * @param desired the client's slug, or the title when none was given
   * @param fallback used when `desired` has no letters or digits at all (e.g. the type's noun)
   * @param alsoTaken slugs known to be taken although this transaction cannot see them yet
   */
  async uniqueSlug(
    type: string,
    desired: string,
    fallback: string,
    excludeId?: number,
    alsoTaken: readonly string[] = [],
  ): Promise<string> {
    const base = baseSlug(desired, fallback);
    const qb = this.db.manager
      .createQueryBuilder(PostEntity, 'p')
      .select('p.slug', 'slug')
      .where('p.type = :type', { type })
      .andWhere('(p.slug = :base OR p.slug LIKE :prefix)', { base, prefix: `${base}-%` });
    if (excludeId !== undefined) qb.andWhere('p.id <> :excludeId', { excludeId });
    const rows = await qb.getRawMany<{ slug: string }>();
    return pickAvailableSlug(base, [...rows.map((r) => r.slug), ...alsoTaken]);
  }

  /**
   * Inserts a new post under the first free slug (every column set, so nothing is read back). The plain
   * slug is tried first without a look-up (most new titles are new); when it is taken — or a concurrent
   * writer takes the one picked between the look-up and the insert — the insert alone fails and the next
   * free suffix is tried, so a burst of creates with one title all succeed (`title`, `title-2`, …) instead
   * of answering 409.
   */
  async insertWithUniqueSlug(post: PostEntity, desired: string, fallback: string): Promise<PostEntity> {
    const tried: string[] = [];
    post.slug = baseSlug(desired, fallback);
    for (;;) {
      try {
        post.id = await this.db.attemptStatement(() => this.db.insertReturningId(PostEntity, post));
        return post;
      } catch (error) {
        if (!isUniqueViolation(error) || tried.length >= MAX_SLUG_TRIES) throw error;
        tried.push(post.slug);
      }
      post.slug = await this.uniqueSlug(post.type, desired, fallback, undefined, tried);
    }
  }
}
