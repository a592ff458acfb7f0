import type { DataSource } from 'typeorm';
import { formatSqlDateTime } from './datetime.transformer';
import { type DerivedStore, fillDerivedStores } from './derived-stores';
import { FILL_LISTING_COUNTS } from './migrations/1764200000000-add-event-listing-days';
import { FILL_TERM_LISTING_COUNTS } from './migrations/1764300000000-add-event-term-listing-days';
import { FILL_EVENT_DOCUMENT_ROWS } from './migrations/1765000000000-add-event-documents';

/** Tables the service derives from the event rows in SQL on every write, emptied before a rebuild (children first). */
const DERIVED_TABLES = [
  'event_term_listing_marks',
  'event_term_listing_days',
  'event_listing_marks',
  'event_listing_days',
];

/**
 * Rebuilds what the service derives from the event rows: the per-day listing counts (overall and per term)
 * and the event documents in one transaction, as the migrations that introduced them fill them; then every
 * module's derived store (the word index and its per-day counts) with today's code; then bumps the content
 * version so every instance drops its cached answers. For rows edited by hand in SQL (docs/operations.md).
 * Returns the number of indexed words and the stores filled.
 */
export async function rebuildDerivedData(
  dataSource: DataSource,
  stores: readonly DerivedStore[],
): Promise<{ searchWords: number; stores: string[] }> {
  await dataSource.transaction(async (manager) => {
    for (const table of DERIVED_TABLES) await manager.query(`DELETE FROM ${table}`);
    for (const statement of [...FILL_LISTING_COUNTS, ...FILL_TERM_LISTING_COUNTS]) await manager.query(statement);
    // The event documents: a row for every event, every body emptied (each is built again on its next read).
    await manager.query(FILL_EVENT_DOCUMENT_ROWS);
    await manager.query(
      'UPDATE event_documents SET generation = generation + 1, format = NULL, object_json = NULL, json_ld = NULL',
    );
  });
  const filled = await fillDerivedStores(dataSource, stores, true);
  await dataSource.query('UPDATE write_sequence SET value = value + 1, changed_utc = ? WHERE id = 1', [
    formatSqlDateTime(new Date()),
  ]);
  const [{ n }] = await dataSource.query<{ n: number | string }[]>('SELECT COUNT(*) AS n FROM event_search_words');
  return { searchWords: Number(n), stores: filled };
}
