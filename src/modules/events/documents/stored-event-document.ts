import type { SelectQueryBuilder } from 'typeorm';
import { EventDocumentEntity } from './event-document.entity';

/** An event's document row as a read found it. */
export interface StoredEventDocument {
  generation: number;
  format: string | null;
  /** null: not built since the last change; `''`: built, and found not to be the same for every caller. */
  objectJson: string | null;
  /** Read by single reads only. */
  jsonLd?: string | null;
}

/**
 * Joins an event query (posts `p`) to its document row and selects the columns a read needs: lists leave
 * out `json_ld`, which only single reads show.
 */
export function selectDocument<T extends object>(
  qb: SelectQueryBuilder<T>,
  withJsonLd: boolean,
): SelectQueryBuilder<T> {
  qb.leftJoin(EventDocumentEntity, 'doc', 'doc.postId = p.id')
    .addSelect('doc.generation', 'doc__generation')
    .addSelect('doc.format', 'doc__format')
    .addSelect('doc.object_json', 'doc__object_json');
  return withJsonLd ? qb.addSelect('doc.json_ld', 'doc__json_ld') : qb;
}

/** The document a row selected by {@link selectDocument} holds; null when the event has no row. */
export function storedDocumentOf(row: Record<string, unknown>): StoredEventDocument | null {
  const generation = row.doc__generation;
  if (generation === null || generation === undefined) return null;
  const document: StoredEventDocument = {
    generation: Number(generation),
    format: (row.doc__format as string | null) ?? null,
    objectJson: (row.doc__object_json as string | null) ?? null,
  };
  if ('doc__json_ld' in row) document.jsonLd = (row.doc__json_ld as string | null) ?? null;
  return document;
}
