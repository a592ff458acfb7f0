import type { DatabaseContext } from '../../../../database/database-context';
import type { WriteTransactions } from '../../../../database/write-transactions';
import type { BuiltDocument } from './event-document-builder';
import { EventDocumentBodyEntity } from './event-document-body.entity';

/** Stores built documents as `format`'s bodies, each for the generation its rows were read at. */
export async function storeDocumentBodies(
  db: DatabaseContext,
  transactions: WriteTransactions,
  format: string,
  built: BuiltDocument[],
): Promise<void> {
  if (built.length === 0) return;
  const rows = built.map(({ record, objectJson, jsonLd, validUntilUtc }) => ({
    postId: record.post.id,
    format,
    generation: record.document.generation,
    objectJson,
    jsonLd,
    validUntilUtc,
  }));
  // A body is served only at the generation it names: one built from rows read before a change (it names
  // the old generation) never answers after it, whichever of two fills lands last.
  await transactions.run(
    () =>
      db.upsert(
        EventDocumentBodyEntity,
        rows,
        ['generation', 'object_json', 'json_ld', 'valid_until_utc'],
        ['post_id', 'format'],
      ),
    { content: false },
  );
}
