import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';

/** What a feed's content is known by, per event: enough to tell any change of its bytes. */
export interface FeedEntryState {
  id: number;
  timezone: string;
  allDay: boolean;
  startUtc: string;
  endUtc: string;
  modifiedUtc: string;
  /** When the event or anything it shows (venue, organizer, terms) last changed (`change_heads`). */
  changedUtc: string | null;
  /** The write sequence number of that change (two changes within one second have the same time). */
  changedSeq: number;
  /** The series the event is an occurrence of: the feed writes series as one VEVENT with exceptions. */
  seriesId: number | null;
}

/**
 * A feed's ETag from its own content: its events, each with its dates and when it or what it shows last
 * changed, and `feedKey` (who asks, how, this build). A write that changes nothing in the feed (a draft,
 * an event of another month) leaves it as it is, so subscribers do not download the whole feed again.
 */
export function feedFingerprint(feedKey: string, entries: readonly FeedEntryState[]): string {
  const hash = createHash('sha1').update(feedKey);
  for (const e of entries) {
    hash.update(
      `\n${e.id}|${e.timezone}|${e.allDay ? 1 : 0}|${e.startUtc}|${e.endUtc}|${e.modifiedUtc}|${e.changedUtc ?? ''}|${e.changedSeq}|${e.seriesId ?? ''}`,
    );
  }
  return hash.digest('base64url');
}

/**
 * Fingerprints already computed, by content version and feed: a poll of a feed whose fingerprint is known
 * for the current version is answered 304 without reading its events.
 */
export class FeedFingerprints {
  private readonly known = new LRUCache<string, string>({ max: 2_000 });

  get(versionKey: string, feedKey: string): string | undefined {
    return this.known.get(`${versionKey}\u0000${feedKey}`);
  }

  set(versionKey: string, feedKey: string, fingerprint: string): void {
    this.known.set(`${versionKey}\u0000${feedKey}`, fingerprint);
  }
}
