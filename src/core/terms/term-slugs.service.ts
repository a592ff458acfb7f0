import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { pickAvailableSlug, slugify } from '../posts/slugs';
import { TermEntity } from './term.entity';

/** Term slugs: unique within their taxonomy, `-2`, `-3`… on collision, the term being updated excluded. */
@Injectable()
export class TermSlugsService {
  async uniqueSlug(manager: EntityManager, taxonomy: string, desired: string, excludeId?: number): Promise<string> {
    const base = slugify(desired) || 'term';
    const qb = manager
      .createQueryBuilder(TermEntity, 't')
      .select('t.slug', 'slug')
      .where('t.taxonomy = :taxonomy', { taxonomy })
      .andWhere('(t.slug = :base OR t.slug LIKE :prefix)', { base, prefix: `${base}-%` });
    if (excludeId !== undefined) qb.andWhere('t.id <> :excludeId', { excludeId });
    const rows = await qb.getRawMany<{ slug: string }>();
    return pickAvailableSlug(
      base,
      rows.map((r) => r.slug),
    );
  }
}
