import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { Clock } from '../dates/clock';
import { AppConfig } from '../../config/app-config';
import { ContentVersion } from '../../database/content-version';

/** Entries are a key and a number: roughly this many bytes each. */
const ENTRY_BYTES = 256;

/**
 * Totals of list queries by filter set, caller scope and content version. An exact total counts every
 * visible record in the window, which at hundreds of thousands of events costs more than the page
 * itself; the pages of one listing share it until the next write anywhere changes the version. Exact,
 * on any number of instances: there is no time to live. `RESPONSE_CACHE_MB=0` turns it off.
 */
@Injectable()
export class ListTotalsCache {
  private readonly cache: LRUCache<string, number> | null;

  constructor(
    config: AppConfig,
    private readonly version: ContentVersion,
    private readonly clock: Clock,
  ) {
    // A small share of the response cache's memory: totals are tiny next to answers.
    const entries = Math.floor(config.responseCacheBytes / 16 / ENTRY_BYTES);
    this.cache = entries > 0 ? new LRUCache({ max: entries }) : null;
  }

  /** The total for `key` at the current version, counted by `count` when not known yet. */
  async reuse(key: string, count: () => Promise<number>): Promise<number> {
    if (!this.cache) return count();
    const snapshot = await this.version.current(this.clock.nowSqlUtc());
    if (snapshot.volatile) return count();
    const versioned = `${snapshot.key}|${key}`;
    const known = this.cache.get(versioned);
    if (known !== undefined) return known;
    const total = await count();
    this.cache.set(versioned, total);
    return total;
  }
}
