import type { DatabaseContext } from '../../../../database/database-context';
import type { DocumentOrCountRow, StoredEventDocument } from './stored-event-document';

/**
 * The stored documents of `ids` (their bodies of `format`) and the counts of the terms they carry, in one
 * statement. (Apart from the page query: joined to it, MariaDB reads the posts first and sorts the whole
 * window.)
 */
export async function documentsOf(
  db: DatabaseContext,
  ids: number[],
  format: string,
): Promise<{ documents: Map<number, StoredEventDocument>; counts: Map<number, number> }> {
  const documents = new Map<number, StoredEventDocument>();
  const counts = new Map<number, number>();
  if (ids.length === 0) return { documents, counts };
  const list = ids.map(() => '?').join(', ');
  const rows = await db.manager.query<DocumentOrCountRow[]>(
    `SELECT 0 AS part, e.post_id AS id, e.generation AS generation,
            b.object_json AS object_json, b.valid_until_utc AS valid_until_utc, NULL AS term_count
       FROM event_documents e
       LEFT JOIN event_document_bodies b
         ON b.post_id = e.post_id AND b.format = ? AND b.generation = e.generation
      WHERE e.post_id IN (${list})
     UNION ALL
     SELECT 1, t.id, NULL, NULL, NULL, t.count
       FROM term_relationships tr INNER JOIN terms t ON t.id = tr.term_id WHERE tr.post_id IN (${list})`,
    [format, ...ids, ...ids],
  );
  for (const row of rows) {
    if (Number(row.part) === 1) counts.set(Number(row.id), Number(row.term_count));
    else
      documents.set(Number(row.id), {
        generation: Number(row.generation),
        objectJson: row.object_json,
        validUntilUtc: row.valid_until_utc,
      });
  }
  return { documents, counts };
}
