import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { reason } from '../../common/validation/validation-messages';
import { slugify } from '../posts/slugs';
import type { TaxonomyDefinition } from './taxonomy.registry';
import { TermSlugsService } from './term-slugs.service';
import { TermEntity } from './term.entity';
import { DatabaseContext } from '../../database/database-context';

/**
 * Terms as posts name them: by id, slug or name. Writes create terms for names that do not exist yet;
 * filters only look them up. Unknown ids are a client error either way.
 */
@Injectable()
export class TermReferencesService {
  constructor(
    private readonly db: DatabaseContext,
    private readonly slugs: TermSlugsService,
  ) {}

  /** Ids for `items` in the order given; names and slugs not found become new top-level terms. */
  async resolveForWrite(taxonomy: TaxonomyDefinition, items: (number | string)[], param: string): Promise<number[]> {
    const { byId, bySlug, byName } = await this.lookup(taxonomy.taxonomy, items);
    const unknown = items.filter((i): i is number => typeof i === 'number' && !byId.has(i));
    if (unknown.length > 0) throw RequestValidationError.of({ [param]: reason('unknown_ids', unknown.join(', ')) });
    const ids: number[] = [];
    for (const item of items) {
      if (typeof item === 'number') {
        ids.push(item);
        continue;
      }
      const found = bySlug.get(item.toLowerCase()) ?? byName.get(item.toLowerCase());
      if (found) {
        ids.push(found.id);
        continue;
      }
      const created = await this.db.manager.save(
        this.db.manager.create(TermEntity, {
          taxonomy: taxonomy.taxonomy,
          name: item,
          slug: await this.slugs.uniqueSlug(taxonomy.taxonomy, item),
          description: '',
          parentId: null,
          count: 0,
        }),
      );
      byName.set(item.toLowerCase(), created);
      ids.push(created.id);
    }
    return [...new Set(ids)];
  }

  /** Ids for filter `items` (ids or slugs); any that does not exist is a 400 naming it. */
  async resolveForFilter(taxonomy: string, items: (number | string)[], param: string): Promise<number[]> {
    const { byId, bySlug } = await this.lookup(taxonomy, items);
    const ids: number[] = [];
    const unknown: (number | string)[] = [];
    for (const item of items) {
      const found = typeof item === 'number' ? byId.get(item) : bySlug.get(item.toLowerCase());
      if (found) ids.push(found.id);
      else unknown.push(item);
    }
    if (unknown.length > 0) throw RequestValidationError.of({ [param]: reason('unknown_items', unknown.join(', ')) });
    return ids;
  }

  private async lookup(taxonomy: string, items: (number | string)[]) {
    const ids = items.filter((i): i is number => typeof i === 'number');
    const texts = items.filter((i): i is string => typeof i === 'string');
    const slugs = [...new Set(texts.flatMap((t) => [t.toLowerCase(), slugify(t)]).filter((s) => s !== ''))];
    const byId = new Map<number, TermEntity>();
    const bySlug = new Map<string, TermEntity>();
    const byName = new Map<string, TermEntity>();
    if (ids.length > 0) {
      for (const term of await this.db.manager.findBy(TermEntity, { taxonomy, id: In(ids) })) byId.set(term.id, term);
    }
    if (texts.length > 0) {
      const qb = this.db.manager
        .createQueryBuilder(TermEntity, 't')
        .where('t.taxonomy = :taxonomy', { taxonomy })
        .andWhere('(t.slug IN (:...slugs) OR LOWER(t.name) IN (:...names))', {
          slugs,
          names: texts.map((t) => t.toLowerCase()),
        })
        .orderBy('t.id', 'ASC');
      for (const term of await qb.getMany()) {
        if (!bySlug.has(term.slug)) bySlug.set(term.slug, term);
        const name = term.name.toLowerCase();
        if (!byName.has(name)) byName.set(name, term);
      }
      // A name given as text may match a term by its slugified form too.
      for (const text of texts) {
        const slug = slugify(text);
        const match = bySlug.get(slug);
        if (match && !bySlug.has(text.toLowerCase()) && match.name.toLowerCase() === text.toLowerCase()) {
          bySlug.set(text.toLowerCase(), match);
        }
      }
    }
    return { byId, bySlug, byName };
  }
}
