import { Injectable } from '@nestjs/common';
import { PostStatusListeners } from '../../core/posts/post-status-listeners';
import { DatabaseContext } from '../../database/database-context';
import {
  insertSearchRows,
  SEARCH_WORD_COLUMNS,
  SEARCHABLE_EVENT_SELECT,
  searchableEventOf,
  searchRowsOf,
  type SearchableEvent,
  type SearchableEventRow,
  type SearchWordRow,
} from './event-search-rows';

const rowKey = (r: SearchWordRow) =>
  [r.word, r.in_title, r.in_body, r.public_match, r.start_utc, r.end_utc].map(String).join('|');

/**
 * Keeps `event_search_words` in line with the events, in the write's transaction: after every create,
 * update and status change (trash, publish, the publisher's flips). Deleting an event for good drops its
 * rows by cascade.
 */
@Injectable()
export class EventSearchIndex {
  constructor(
    private readonly db: DatabaseContext,
    statusListeners: PostStatusListeners,
  ) {
    statusListeners.add((changes) => this.sync(changes.map((c) => c.postId)));
  }

  /** Indexes an event just created, from what the write has at hand (no read). */
  async addNew(event: SearchableEvent): Promise<void> {
    await insertSearchRows(this.db.manager, searchRowsOf(event));
  }

  /** Rewrites the rows of those of these events (other post types are ignored) whose words or flags changed. */
  async sync(postIds: number[]): Promise<void> {
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
    const stored = await this.storedKeys([...wanted.keys()]);
    const changed = [...wanted].filter(
      ([id, rows]) => rows.map(rowKey).join('\n') !== (stored.get(id) ?? []).join('\n'),
    );
    if (changed.length === 0) return;
    const replaced = changed.map(([id]) => id).filter((id) => stored.has(id));
    if (replaced.length > 0) {
      await this.db.manager
        .createQueryBuilder()
        .delete()
        .from('event_search_words')
        .where('post_id IN (:...replaced)', { replaced })
        .execute();
    }
    await insertSearchRows(
      this.db.manager,
      changed.flatMap(([, eventRows]) => eventRows),
    );
  }

  /** Each event's stored rows as `rowKey`s, in word order (the order `searchRowsOf` gives). */
  private async storedKeys(postIds: number[]): Promise<Map<number, string[]>> {
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
    const keys = new Map<number, string[]>();
    for (const [id, list] of byPost) {
      list.sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
      keys.set(id, list.map(rowKey));
    }
    return keys;
  }
}
