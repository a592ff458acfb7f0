import type { SelectQueryBuilder } from 'typeorm';
import { EventDocumentBodyEntity } from './event-document-body.entity';
import { EventDocumentEntity } from './event-document.entity';

/** An event's document row as a read found it, with this build's bodies at its current generation. */
export interface StoredEventDocument {
  generation: number;
  /**
   * null: not built by this build since the last change; `''`: built, and found not to be the same for every
   * caller.
   */
  objectJson: string | null;
  /** Until when (UTC) the bodies hold; null: until the event next changes. */
  validUntilUtc: string | null;
  /** Read by single reads only. */
  jsonLd?: string | null;
  /**
   * Read by single reads only: the current counts of the event's terms, which fill its template's count
   * placeholders (MySQL's `group_concat_max_len` may cut a long list short: the reader checks).
   */
  termCounts?: Map<number, number>;
}

/**
 * The counts of an event's terms as one `id:count;,…` text, so a single read needs no second statement for
 * them. `GROUP_CONCAT` and `CONCAT` are the same on MySQL, MariaDB and SQLite (3.44 and later; the driver
 * bundles its own). Each pair ends in `;`: MySQL cuts the text at `group_concat_max_len` (1,024 bytes by
 * default), and a cut pair must not pass for a whole one.
 */
const TERM_COUNTS = `(SELECT GROUP_CONCAT(CONCAT(t.id, ':', t.count, ';'))
   FROM term_relationships tr INNER JOIN terms t ON t.id = tr.term_id WHERE tr.post_id = p.id)`;

/**
 * Joins an event query (posts `p`) to its document row and to the bodies `format` (this build) made at its
 * current generation, and selects the columns a read needs: a single read (`single`) also takes `json_ld`,
 * which only it shows, and its terms' counts.
 */
export function selectDocument<T extends object>(
  qb: SelectQueryBuilder<T>,
  single: boolean,
  format: string,
): SelectQueryBuilder<T> {
  qb.leftJoin(EventDocumentEntity, 'doc', 'doc.postId = p.id')
    .leftJoin(
      EventDocumentBodyEntity,
      'body',
      'body.postId = p.id AND body.format = :documentFormat AND body.generation = doc.generation',
      { documentFormat: format },
    )
    .addSelect('doc.generation', 'doc__generation')
    .addSelect('body.object_json', 'doc__object_json')
    .addSelect('body.valid_until_utc', 'doc__valid_until_utc');
  return single ? qb.addSelect('body.json_ld', 'doc__json_ld').addSelect(TERM_COUNTS, 'doc__term_counts') : qb;
}

/** The whole pairs of {@link TERM_COUNTS}'s text; a pair cut short is left out. */
export function termCountsOf(text: string | Buffer | null | undefined): Map<number, number> {
  const counts = new Map<number, number>();
  if (text === null || text === undefined) return counts;
  for (const pair of text.toString().split(',')) {
    const whole = /^(\d+):(\d+);$/.exec(pair);
    if (whole) counts.set(Number(whole[1]), Number(whole[2]));
  }
  return counts;
}

/** The document a row selected by {@link selectDocument} holds; null when the event has no row. */
export function storedDocumentOf(row: Record<string, unknown>): StoredEventDocument | null {
  const generation = row.doc__generation;
  if (generation === null || generation === undefined) return null;
  const document: StoredEventDocument = {
    generation: Number(generation),
    objectJson: (row.doc__object_json as string | null) ?? null,
    validUntilUtc: (row.doc__valid_until_utc as string | null) ?? null,
  };
  if ('doc__json_ld' in row) document.jsonLd = (row.doc__json_ld as string | null) ?? null;
  if ('doc__term_counts' in row) document.termCounts = termCountsOf(row.doc__term_counts as string | Buffer | null);
  return document;
}

/** A row of {@link EventDocuments.documentsOf}: a document (part 0) or a term's count (part 1). */
export interface DocumentOrCountRow {
  part: number | string;
  id: number | string;
  generation: number | string | null;
  object_json: string | null;
  valid_until_utc: string | null;
  term_count: number | string | null;
}
