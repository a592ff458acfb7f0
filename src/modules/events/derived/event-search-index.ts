import { Injectable } from '@nestjs/common';
import { CommitSteps } from '../../../database/commit-steps';
import { changedEvents, createdEvents, noop } from '../model/event-changes';
import { EVENT_POST_TYPE } from '../model/event.post-type';
import { DatabaseContext } from '../../../database/database-context';
import {
  insertSearchRows,
  type SearchRowsInsert,
  SEARCH_WORD_COLUMNS,
  SEARCHABLE_EVENT_SELECT,
  searchableEventOf,
  searchRowsOf,
  type SearchableEventRow,
  type SearchWordRow,
} from './event-search-rows';

const rowKey = (r: SearchWordRow) =>
  [r.word, r.in_title, r.in_body, r.public_match, r.start_utc, r.end_utc].map(String).join('|');

const WORD_DAY_KEY_COLUMNS = ['word', 'start_day', 'end_day'];

/**
 * Changes to `event_search_word_days`: one per (word, start day, end day) the public finds an event by,
 * handed out in key order so concurrent writers lock shared counter rows in one order.
 */
class WordDayDeltas {
  private readonly byKey = new Map<string, { key: Record<string, string>; delta: number }>();

  move(rows: SearchWordRow[], delta: number): void {
    for (const row of rows) {
      if (!row.public_match) continue;
      const key = { word: row.word, start_day: row.start_utc.slice(0, 10), end_day: row.end_utc.slice(0, 10) };
      const id = `${key.word}\u0000${key.start_day}|${key.end_day}`;
      const entry = this.byKey.get(id) ?? { key, delta: 0 };
      entry.delta += delta;
      this.byKey.set(id, entry);
    }
  }

  /** Keys per size of change, each list in key order (code-point order; a deadlock is retried anyway). */
  byDelta(): Map<number, Record<string, string>[]> {
    const sorted = [...this.byKey].filter(([, e]) => e.delta !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const groups = new Map<number, Record<string, string>[]>();
    for (const [, { key, delta }] of sorted) {
      const group = groups.get(delta) ?? [];
      group.push(key);
      groups.set(delta, group);
    }
    return groups;
  }
}

/** Counter rows per upsert (a description of thousands of words; drivers bound parameters). */
const COUNTERS_PER_UPSERT = 500;

/**
 * Keeps `event_search_words` and its per-day counts `event_search_word_days` in line with the events, in
 * the write's transaction: after every create, update and status change (trash, publish, the publisher's
 * flips), and before an event is deleted for good (the cascade drops its rows, not its counts).
 */
@Injectable()
export class EventSearchIndex {
  private readonly insertRows: SearchRowsInsert = (table, rows, columns) => this.db.insertOnly(table, rows, columns);

  constructor(
    private readonly db: DatabaseContext,
    commitSteps: CommitSteps,
  ) {
    // Kept in step by the write's change stream: every event a write created, changed or (re)published.
    commitSteps.add((changes) => this.sync(changedEvents(changes), createdEvents(changes)));
    commitSteps.addBeforeDelete((resource, ids) =>
      resource === EVENT_POST_TYPE.noun ? this.forget([...ids]) : noop(),
    );
  }

  /** Rewrites the rows of those of these events (other post types are ignored) whose words or flags changed. */
  async sync(postIds: number[], created: ReadonlySet<number> = new Set()): Promise<void> {
    if (postIds.length === 0) return;
    const events = await this.db.manager
      .createQueryBuilder()
      .from('posts', 'p')
      .innerJoin('event_details', 'd', 'd.post_id = p.id')
      .select(SEARCHABLE_EVENT_SELECT)
      .where('p.id IN (:...postIds)', { postIds })
      .getRawMany<SearchableEventRow>();
    // Venues, organizers and other post types change status through the same listeners: nothing to index.
    if (events.length === 0) return;
    const wanted = new Map(events.map((row) => [Number(row.id), searchRowsOf(searchableEventOf(row))]));
    // A new event has no rows yet: nothing to read.
    const stored = await this.storedRows([...wanted.keys()].filter((id) => !created.has(id)));
    const changed = [...wanted].filter(
      ([id, rows]) => rows.map(rowKey).join('\n') !== (stored.get(id) ?? []).map(rowKey).join('\n'),
    );
    if (changed.length === 0) return;
    const deltas = new WordDayDeltas();
    const replaced = changed.map(([id]) => id).filter((id) => stored.has(id));
    if (replaced.length > 0) {
      for (const id of replaced) deltas.move(stored.get(id) ?? [], -1);
      await this.deleteRows(replaced);
    }
    const added = changed.flatMap(([, eventRows]) => eventRows);
    await insertSearchRows(added, this.insertRows);
    deltas.move(added, 1);
    await this.apply(deltas);
  }

  /** Takes these events out of the counts: before they are deleted for good (the cascade drops their rows). */
  async forget(postIds: number[]): Promise<void> {
    if (postIds.length === 0) return;
    const stored = await this.storedRows(postIds);
    const deltas = new WordDayDeltas();
    for (const rows of stored.values()) deltas.move(rows, -1);
    await this.deleteRows(postIds);
    await this.apply(deltas);
  }

  private async deleteRows(postIds: number[]): Promise<void> {
    await this.db.manager
      .createQueryBuilder()
      .delete()
      .from('event_search_words')
      .where('post_id IN (:...postIds)', { postIds })
      .execute();
  }

  /** One upsert per size of change (for a single write, one), in bounded batches. */
  private async apply(deltas: WordDayDeltas): Promise<void> {
    for (const [delta, keys] of deltas.byDelta()) {
      for (let i = 0; i < keys.length; i += COUNTERS_PER_UPSERT) {
        const batch = keys.slice(i, i + COUNTERS_PER_UPSERT);
        await this.db.addToCounters('event_search_word_days', WORD_DAY_KEY_COLUMNS, 'matched', batch, delta);
      }
    }
  }

  /** Each event's stored rows, in word order (the order `searchRowsOf` gives). */
  private async storedRows(postIds: number[]): Promise<Map<number, SearchWordRow[]>> {
    if (postIds.length === 0) return new Map();
    const rows = await this.db.manager
      .createQueryBuilder()
      .from('event_search_words', 'w')
      .select(SEARCH_WORD_COLUMNS.map((c) => `w.${c} AS ${c}`))
      .where('w.post_id IN (:...postIds)', { postIds })
      .getRawMany<SearchWordRow>();
    const byPost = new Map<number, SearchWordRow[]>();
    for (const row of rows) {
      const list = byPost.get(Number(row.post_id)) ?? [];
      list.push({
        ...row,
        in_title: Number(row.in_title),
        in_body: Number(row.in_body),
        public_match: Number(row.public_match),
      });
      byPost.set(Number(row.post_id), list);
    }
    for (const list of byPost.values()) list.sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
    return byPost;
  }
}
