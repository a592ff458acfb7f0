import { Injectable } from '@nestjs/common';
import { PostEntity } from '../../../core/posts/post.entity';
import { RawRows } from '../../../database/raw-rows';
import { ShapedQueries, unionAll, type ShapeParams } from '../../../database/shaped-queries';
import type { LinkedRecord } from './linked-posts.repository';

/** Where one link type keeps its records and links: what a part of the union reads. */
export interface LinkedRecordsSource {
  /** `posts.type` of the linked records. */
  type: string;
  /** Their companion table. */
  details: new () => { postId: number };
  /** The link table (`event_id`, `linkColumn`, `sort_order`). */
  linkTable: string;
  linkColumn: string;
}

/**
 * The records many events link to, for every link type at once (venues, organizers, a team's speakers):
 * one query, a `UNION ALL` of one part per type, each part selecting the post columns and every type's
 * companion columns (its own, NULL for the others), so the parts line up. A page of events, a single
 * event and a write's answer pay one round trip for all their links instead of one per type.
 */
@Injectable()
export class LinkedRecordsReader {
  constructor(
    private readonly rows: RawRows,
    private readonly shaped: ShapedQueries,
  ) {}

  /**
   * For each source, in the sources' order, the links of `parentIds`: each parent's in stored order, with
   * the post and companion rows (null when it has none yet). Links to posts of another type (never written,
   * but a foreign key cannot forbid them) are left out.
   */
  async of(parentIds: number[], sources: readonly LinkedRecordsSource[]): Promise<LinkedRecord<object>[][]> {
    const bySource = sources.map((): (LinkedRecord<object> & { order: number })[] => []);
    if (parentIds.length === 0 || sources.length === 0) return bySource;
    const params: ShapeParams = { parentIds };
    sources.forEach((source, index) => (params[`type${index}`] = source.type));
    const rows = await this.shaped.rawMany<Record<string, unknown>>(
      `linkedRecords:${sources.map((s) => s.linkTable).join(',')}`,
      params,
      (manager, marked) =>
        unionAll(
          sources.map((source, index) =>
            manager
              .createQueryBuilder()
              .from(source.linkTable, 'l')
              .innerJoin(PostEntity, 'p', `p.id = l.${source.linkColumn} AND p.type = :type${index}`, marked)
              .leftJoin(source.details, `d${index}`, `d${index}.postId = p.id`)
              .select(String(index), 'link_part')
              .addSelect('l.event_id', 'l__event_id')
              .addSelect('l.sort_order', 'l__sort_order')
              .addSelect(this.rows.select(PostEntity, 'p'))
              .addSelect(
                sources.flatMap((other, at) =>
                  at === index
                    ? this.rows.select(other.details, `d${at}`)
                    : this.rows.selectNulls(other.details, `d${at}`),
                ),
              )
              .where('l.event_id IN (:...parentIds)', marked),
          ),
        ),
    );
    for (const row of rows) {
      const index = Number(row.link_part);
      bySource[index].push({
        parentId: Number(row.l__event_id),
        order: Number(row.l__sort_order),
        post: this.rows.read(PostEntity, 'p', row)!,
        details: this.rows.read(sources[index].details, `d${index}`, row),
      });
    }
    for (const links of bySource) links.sort((a, b) => a.parentId - b.parentId || a.order - b.order);
    return bySource;
  }
}
