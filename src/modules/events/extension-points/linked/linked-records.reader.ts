import { Injectable } from '@nestjs/common';
import { PostEntity } from '../../../../core/posts/post.entity';
import { TermRelationshipEntity } from '../../../../core/terms/term-relationship.entity';
import { TermEntity } from '../../../../core/terms/term.entity';
import { RawRows } from '../../../../database/raw-rows';
import { ShapedQueries, unionAll, type ShapeParams } from '../../../../database/shaped-queries';
import type { LinkedRecord, LinkedRecordsSource } from './linked-record';

/** What events embed besides their own rows: each link type's records, and their terms by event id. */
export interface EventEmbeds {
  /** For each source, in the sources' order, the links with their records. */
  links: LinkedRecord<object>[][];
  /** Each event's terms of the taxonomies asked for, in their stored order. */
  terms: Map<number, TermEntity[]>;
}

/**
 * What many events embed, in one query: the records they link to, for every link type at once (venues,
 * organizers, a team's speakers), and their terms. A `UNION ALL` of one part per link type and one for
 * the terms, each part selecting every part's columns (its own, NULL for the others'), so the parts line
 * up. A page of events, a single event and a write's answer pay one round trip for all of it instead of
 * one per link type and one for the terms.
 */
@Injectable()
export class LinkedRecordsReader {
  constructor(
    private readonly rows: RawRows,
    private readonly shaped: ShapedQueries,
  ) {}

  /**
   * The links of `parentIds` for each source (each parent's in stored order, with the post and companion
   * rows, null when it has none yet) and their terms of `taxonomies`. Links to posts of another type
   * (never written, but a foreign key cannot forbid them) are left out.
   */
  async of(
    parentIds: number[],
    sources: readonly LinkedRecordsSource[],
    taxonomies: readonly string[] = [],
  ): Promise<EventEmbeds> {
    const bySource = sources.map((): (LinkedRecord<object> & { order: number })[] => []);
    const terms = new Map<number, (TermEntity & { order: number })[]>();
    if (parentIds.length === 0 || (sources.length === 0 && taxonomies.length === 0)) {
      return { links: bySource, terms };
    }
    const withTerms = taxonomies.length > 0;
    const params: ShapeParams = { parentIds, ...(withTerms ? { taxonomies: [...taxonomies] } : {}) };
    sources.forEach((source, index) => (params[`type${index}`] = source.type));
    const termColumns = (present: boolean) =>
      withTerms ? (present ? this.rows.select(TermEntity, 't') : this.rows.selectNulls(TermEntity, 't')) : [];
    const detailColumns = (own: number | null) =>
      sources.flatMap((other, at) =>
        at === own ? this.rows.select(other.details, `d${at}`) : this.rows.selectNulls(other.details, `d${at}`),
      );
    const rows = await this.shaped.rawMany<Record<string, unknown>>(
      `linkedRecords:${sources.map((s) => s.linkTable).join(',')}${withTerms ? '+terms' : ''}`,
      params,
      (manager, marked) =>
        unionAll([
          ...sources.map((source, index) =>
            manager
              .createQueryBuilder()
              .from(source.linkTable, 'l')
              .innerJoin(PostEntity, 'p', `p.id = l.${source.linkColumn} AND p.type = :type${index}`, marked)
              .leftJoin(source.details, `d${index}`, `d${index}.postId = p.id`)
              .select(String(index), 'link_part')
              .addSelect('l.event_id', 'l__event_id')
              .addSelect('l.sort_order', 'l__sort_order')
              .addSelect(this.rows.select(PostEntity, 'p'))
              .addSelect(detailColumns(index))
              .addSelect(termColumns(false))
              .where('l.event_id IN (:...parentIds)', marked),
          ),
          ...(withTerms
            ? [
                manager
                  .createQueryBuilder()
                  // By table name, as the link parts: TypeORM puts an entity alias's own columns first,
                  // and a union's parts must keep their columns in one order.
                  .from(manager.connection.getMetadata(TermRelationshipEntity).tableName, 'tr')
                  .innerJoin(TermEntity, 't', 't.id = tr.term_id AND t.taxonomy IN (:...taxonomies)', marked)
                  .select(String(sources.length), 'link_part')
                  .addSelect('tr.post_id', 'l__event_id')
                  .addSelect('tr.term_order', 'l__sort_order')
                  .addSelect(this.rows.selectNulls(PostEntity, 'p'))
                  .addSelect(detailColumns(null))
                  .addSelect(termColumns(true))
                  .where('tr.post_id IN (:...parentIds)', marked),
              ]
            : []),
        ]),
    );
    for (const row of rows) {
      const index = Number(row.link_part);
      const parentId = Number(row.l__event_id);
      const order = Number(row.l__sort_order);
      if (index === sources.length) {
        const list = terms.get(parentId) ?? [];
        list.push({ ...this.rows.read(TermEntity, 't', row)!, order });
        terms.set(parentId, list);
        continue;
      }
      bySource[index].push({
        parentId,
        order,
        post: this.rows.read(PostEntity, 'p', row)!,
        details: this.rows.read(sources[index].details, `d${index}`, row),
      });
    }
    for (const links of bySource) links.sort((a, b) => a.parentId - b.parentId || a.order - b.order);
    // Terms in their stored order, then by id (a post's order is unique, but a hand-edited row may repeat one).
    for (const list of terms.values()) list.sort((a, b) => a.order - b.order || a.id - b.id);
    return { links: bySource, terms };
  }
}
