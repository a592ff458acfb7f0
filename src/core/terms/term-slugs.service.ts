import { Injectable } from '@nestjs/common';
import { pickAvailableSlug, slugify } from '../posts/slugs';
import { TermEntity } from './term.entity';
import { DatabaseContext } from '../../database/database-context';

/** Term slugs: unique within their taxonomy, `-2`, `-3`… on collision, the term being updated excluded. */
@Injectable()
export class TermSlugsService {
  constructor(private readonly db: DatabaseContext) {}

  async uniqueSlug(taxonomy: string, desired: string, excludeId?: number): Promise<string> {
    const base = slugify(desired) || 'term';
    const qb = this.db.manager
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
