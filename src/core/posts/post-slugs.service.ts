import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isUniqueViolation } from '../../common/errors/driver-errors';
import { inSavepoint } from '../../database/write-transactions';
import { PostEntity } from './post.entity';
import { pickAvailableSlug, slugify } from './slugs';

// Slugs tried in one transaction before the race is left to the whole-transaction retry.
const MAX_SLUG_TRIES = 25;

/** Post slugs: unique within their post type, `-2`, `-3`… on collision, the post being updated excluded. */
@Injectable()
export class PostSlugsService {
  /**
   * @param desired the client's slug, or the title when none was given
   * @param fallback used when `desired` has no letters or digits at all (e.g. the type's noun)
   * @param alsoTaken slugs known to be taken although this transaction cannot see them yet
   */
  async uniqueSlug(
    manager: EntityManager,
    type: string,
    desired: string,
    fallback: string,
    excludeId?: number,
    alsoTaken: readonly string[] = [],
  ): Promise<string> {
    const base = slugify(desired) || slugify(fallback) || 'post';
    const qb = manager
      .createQueryBuilder(PostEntity, 'p')
      .select('p.slug', 'slug')
      .where('p.type = :type', { type })
      .andWhere('(p.slug = :base OR p.slug LIKE :prefix)', { base, prefix: `${base}-%` });
    if (excludeId !== undefined) qb.andWhere('p.id <> :excludeId', { excludeId });
    const rows = await qb.getRawMany<{ slug: string }>();
    return pickAvailableSlug(base, [...rows.map((r) => r.slug), ...alsoTaken]);
  }

  /**
   * Inserts a new post under the first free slug. When a concurrent writer takes the same slug between
   * the look-up and the insert, the insert alone is undone (a savepoint) and the next suffix is tried, so
   * a burst of creates with one title all succeed (`title`, `title-2`, …) instead of answering 409.
   */
  async insertWithUniqueSlug(
    manager: EntityManager,
    post: PostEntity,
    desired: string,
    fallback: string,
  ): Promise<PostEntity> {
    const tried: string[] = [];
    for (;;) {
      post.slug = await this.uniqueSlug(manager, post.type, desired, fallback, undefined, tried);
      try {
        return await inSavepoint(manager, (m) => m.save(post));
      } catch (error) {
        if (!isUniqueViolation(error) || tried.length >= MAX_SLUG_TRIES) throw error;
        tried.push(post.slug);
      }
    }
  }
}
