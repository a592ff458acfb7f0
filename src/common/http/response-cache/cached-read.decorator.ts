import { SetMetadata } from '@nestjs/common';

export const CACHED_READ = 'cal:cached-read';

export interface CachedReadOptions {
  /**
   * A single-resource read of this kind (`event`, `category`): answered with a strong `ETag` (the body's
   * hash, which `If-Match` on writes compares with) and `Last-Modified`. Without it, a list: weak `ETag`.
   */
  resource?: string;
}

/**
 * Marks a GET route whose answer depends only on the URL, the caller and the stored content, so the
 * response cache may keep it until the next write (`ResponseCache`). A route that reads anything else
 * (a header, the clock beyond the minute, a random value) must not carry it.
 */
export const CachedRead = (options: CachedReadOptions = {}): MethodDecorator => SetMetadata(CACHED_READ, options);
