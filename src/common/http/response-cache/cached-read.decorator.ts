import { SetMetadata } from '@nestjs/common';

export const CACHED_READ = 'cal:cached-read';

/**
 * Marks a GET route whose answer depends only on the URL, the caller and the stored content, so the
 * response cache may keep it until the next write (`ResponseCache`). A route that reads anything else
 * (a header, the clock beyond the minute, a random value) must not carry it.
 */
export const CachedRead = (): MethodDecorator => SetMetadata(CACHED_READ, true);
