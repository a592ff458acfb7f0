import type { DataSource } from 'typeorm';
import { formatSqlDateTime } from './datetime.transformer';
import { FILL_LISTING_COUNTS } from './migrations/1764200000000-add-event-listing-days';
import { FILL_TERM_LISTING_COUNTS } from './migrations/1764300000000-add-event-term-listing-days';
import { fillSearchWords } from './migrations/1764400000000-add-event-search-words';
import { FILL_SEARCH_WORD_DAYS } from './migrations/1764900000000-add-event-search-word-days';
import { FILL_EVENT_DOCUMENT_ROWS } from './migrations/1765000000000-add-event-documents';

/** Tables the service derives from the event rows on every write, emptied before a rebuild (children first). */
const DERIVED_TABLES = [
  'event_term_listing_marks',
  'event_term_listing_days',
  'event_listing_marks',
  'event_listing_days',
  'event_search_word_days',
  'event_search_words',
];

/**
 * Rebuilds what the service derives from the event rows — the per-day listing counts (overall and per term),
 * the search word index and its per-day counts, the event documents — in one transaction, as the migrations that introduced them fill them, then
 * bumps the content version so every instance drops its cached answers. For rows edited by hand in SQL
 * (docs/operations.md). Returns the number of indexed words.
 */
export async function rebuildDerivedData(dataSource: DataSource): Promise<{ searchWords: number }> {
  return dataSource.transaction(async (manager) => {
    for (const table of DERIVED_TABLES) await manager.query(`DELETE FROM ${table}`);
    for (const statement of [...FILL_LISTING_COUNTS, ...FILL_TERM_LISTING_COUNTS]) await manager.query(statement);
    await fillSearchWords(manager.queryRunner!);
    await manager.query(FILL_SEARCH_WORD_DAYS);
    // The event documents: a row for every event, every body emptied (each is built again on its next read).
    await manager.query(FILL_EVENT_DOCUMENT_ROWS);
    await manager.query(
      'UPDATE event_documents SET generation = generation + 1, format = NULL, object_json = NULL, json_ld = NULL',
    );
    await manager.query('UPDATE write_sequence SET value = value + 1, changed_utc = ? WHERE id = 1', [
      formatSqlDateTime(new Date()),
    ]);
    const [{ n }] = await manager.query<{ n: number | string }[]>('SELECT COUNT(*) AS n FROM event_search_words');
    return { searchWords: Number(n) };
  });
}
