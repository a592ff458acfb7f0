import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PostEntity } from './post.entity';
import { pickAvailableSlug, slugify } from './slugs';

/** Post slugs: unique within their post type, `-2`, `-3`… on collision, the post being updated excluded. */
@Injectable()
export class PostSlugsService {
  /**
   * @param desired the client's slug, or the title when none was given
   * @param fallback used when `desired` has no letters or digits at all (e.g. the type's noun)
   */
  async uniqueSlug(
    manager: EntityManager,
    type: string,
    desired: string,
    fallback: string,
    excludeId?: number,
  ): Promise<string> {
    const base = slugify(desired) || slugify(fallback) || 'post';
    const qb = manager
      .createQueryBuilder(PostEntity, 'p')
      .select('p.slug', 'slug')
      .where('p.type = :type', { type })
      .andWhere('(p.slug = :base OR p.slug LIKE :prefix)', { base, prefix: `${base}-%` });
    if (excludeId !== undefined) qb.andWhere('p.id <> :excludeId', { excludeId });
    const rows = await qb.getRawMany<{ slug: string }>();
    return pickAvailableSlug(
      base,
      rows.map((r) => r.slug),
    );
  }
}
