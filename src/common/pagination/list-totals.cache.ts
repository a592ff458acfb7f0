import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../config/app-config';

/**
 * Totals of list queries, remembered for `LIST_TOTALS_CACHE_SECONDS`. An exact total counts every
 * visible record in the window, which at hundreds of thousands of events costs more than the page itself;
 * repeated list requests (anonymous browsing) reuse it. Any write on this instance clears the cache
 * (`ClearListTotalsInterceptor`), so a writer sees its change at once; other instances see it within
 * the TTL. 0 turns the cache off.
 */
@Injectable()
export class ListTotalsCache {
  private readonly cache: LRUCache<string, number> | null;

  constructor(config: AppConfig) {
    const seconds = config.listTotalsCacheSeconds;
    this.cache = seconds > 0 ? new LRUCache({ max: 5_000, ttl: seconds * 1000 }) : null;
  }

  get(key: string): number | undefined {
    return this.cache?.get(key);
  }

  set(key: string, total: number): void {
    this.cache?.set(key, total);
  }

  clear(): void {
    this.cache?.clear();
  }
}
