import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { reason } from '../../common/validation/validation-messages';
import { slugify } from '../posts/slugs';
import type { TaxonomyDefinition } from './taxonomy.registry';
import { TermSlugsService } from './term-slugs.service';
import { TermEntity } from './term.entity';
import { DatabaseContext } from '../../database/database-context';
import { ShapedQueries } from '../../database/shaped-queries';
import { selectTermRows, termFromRow, termNameLockKey, type TermRow } from './term-rows';

/**
 * Terms as posts name them: by id, slug or name. Writes create terms for names that do not exist yet;
 * filters only look them up. Unknown ids are a client error either way.
 */
@Injectable()
export class TermReferencesService {
  constructor(
    private readonly db: DatabaseContext,
    private readonly slugs: TermSlugsService,
    private readonly shaped: ShapedQueries,
  ) {}

  /**
   * Ids for each request's `items` in the order given; names and slugs not found become new top-level
   * terms. One look-up serves every taxonomy of a write (a post's categories and tags together).
   */
  async resolveForWrite(requests: TermWriteRequest[]): Promise<number[][]> {
    const found = await this.lookup(requests.map((r) => ({ taxonomy: r.taxonomy.taxonomy, items: r.items })));
    const unknown: Record<string, string> = {};
    for (const [index, { items, param }] of requests.entries()) {
      const missing = items.filter((i): i is number => typeof i === 'number' && !found[index].byId.has(i));
      if (missing.length > 0) unknown[param] = reason('unknown_ids', missing.join(', '));
    }
    if (Object.keys(unknown).length > 0) throw RequestValidationError.of(unknown);
    const resolved: number[][] = [];
    for (const [index, { taxonomy, items }] of requests.entries()) {
      const { byName } = found[index];
      const ids: number[] = [];
      for (const item of items) {
        if (typeof item === 'number') {
          ids.push(item);
          continue;
        }
        const match = termNamed(found[index], item);
        if (match) {
          ids.push(match.id);
          continue;
        }
        // Two writers naming the same new term must end with one: the second waits for the first's commit
        // on this lock, then finds its term (a unique slug alone would give it "name-2").
        await this.db.lockForWrite([termNameLockKey(taxonomy.taxonomy, item)]);
        const [again] = await this.lookup([{ taxonomy: taxonomy.taxonomy, items: [item] }]);
        const other = termNamed(again, item);
        if (other) {
          ids.push(other.id);
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
      resolved.push([...new Set(ids)]);
    }
    return resolved;
  }

  /**
   * Ids for filter `items` (ids or slugs); any that does not exist is a 400 naming it. `withDescendants`:
   * and every term below them, as WordPress's taxonomy queries include a hierarchical taxonomy's children by
   * default (`categories=music` finds the events filed under `jazz`, a child of `music`).
   */
  async resolveForFilter(
    taxonomy: string,
    items: (number | string)[],
    param: string,
    options: { withDescendants?: boolean } = {},
  ): Promise<number[]> {
    const ids = await this.resolveNamed(taxonomy, items, param);
    return options.withDescendants ? this.withDescendants(taxonomy, ids) : ids;
  }

  /** `ids` and every term below them, level by level (one statement a level). */
  private async withDescendants(taxonomy: string, ids: number[]): Promise<number[]> {
    const all = new Set(ids);
    let level = ids;
    while (level.length > 0) {
      const children = await this.db.manager.find(TermEntity, {
        select: { id: true },
        where: { taxonomy, parentId: In(level) },
        order: { id: 'ASC' },
      });
      // A parent cycle (written by hand in SQL) ends here: a term already seen is not followed again.
      level = children.map((c) => c.id).filter((id) => !all.has(id));
      for (const id of level) all.add(id);
    }
    return [...all];
  }

  private async resolveNamed(taxonomy: string, items: (number | string)[], param: string): Promise<number[]> {
    const [{ byId, bySlug }] = await this.lookup([{ taxonomy, items }]);
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

  /**
   * The terms each request may mean, by id, slug and lower-case name, from at most two statements for all
   * requests: terms are read for every taxonomy asked, then sorted to theirs. A row read for another
   * request's text only adds keys its own request never looks up, so each answer is the one a look-up of
   * its own would give.
   */
  private async lookup(requests: { taxonomy: string; items: (number | string)[] }[]): Promise<TermMatches[]> {
    const matches = new Map<string, TermMatches>();
    for (const { taxonomy } of requests) {
      if (!matches.has(taxonomy)) matches.set(taxonomy, { byId: new Map(), bySlug: new Map(), byName: new Map() });
    }
    const ids = requests.flatMap((r) => r.items.filter((i): i is number => typeof i === 'number'));
    const texts = requests.flatMap((r) => r.items.filter((i): i is string => typeof i === 'string'));
    const taxonomies = [...matches.keys()];
    if (ids.length > 0) {
      const terms = await this.db.manager.findBy(TermEntity, { taxonomy: In(taxonomies), id: In([...new Set(ids)]) });
      for (const term of terms) matches.get(term.taxonomy)?.byId.set(term.id, term);
    }
    if (texts.length > 0) {
      const slugs = [...new Set(texts.flatMap((t) => [t.toLowerCase(), slugify(t)]).filter((s) => s !== ''))];
      const names = [...new Set(texts.map((t) => t.toLowerCase()))];
      const rows = await this.shaped.rawMany<TermRow>(
        'termsBySlugOrName',
        { taxonomies, slugs, names },
        (manager, params) =>
          selectTermRows(manager)
            .where('t.taxonomy IN (:...taxonomies)', params)
            .andWhere('(t.slug IN (:...slugs) OR LOWER(t.name) IN (:...names))', params)
            .orderBy('t.id', 'ASC'),
      );
      const terms = rows.map(termFromRow);
      for (const term of terms) {
        const match = matches.get(term.taxonomy);
        if (!match) continue;
        if (!match.bySlug.has(term.slug)) match.bySlug.set(term.slug, term);
        const name = term.name.toLowerCase();
        if (!match.byName.has(name)) match.byName.set(name, term);
      }
      for (const { taxonomy, items } of requests) {
        const { bySlug } = matches.get(taxonomy) as TermMatches;
        // A name given as text may match a term by its slugified form too.
        for (const text of items.filter((i): i is string => typeof i === 'string')) {
          const match = bySlug.get(slugify(text));
          if (match && !bySlug.has(text.toLowerCase()) && match.name.toLowerCase() === text.toLowerCase()) {
            bySlug.set(text.toLowerCase(), match);
          }
        }
      }
    }
    return requests.map((r) => matches.get(r.taxonomy) as TermMatches);
  }
}

/** A post's terms of one taxonomy as a write names them; `param` names them in errors. */
export interface TermWriteRequest {
  taxonomy: TaxonomyDefinition;
  items: (number | string)[];
  param: string;
}

interface TermMatches {
  byId: Map<number, TermEntity>;
  bySlug: Map<string, TermEntity>;
  byName: Map<string, TermEntity>;
}

/** The term a write means by `text`: by slug first, then by name, both case-insensitively. */
const termNamed = (matches: TermMatches, text: string): TermEntity | undefined =>
  matches.bySlug.get(text.toLowerCase()) ?? matches.byName.get(text.toLowerCase());
