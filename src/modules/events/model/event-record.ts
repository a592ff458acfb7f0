import { PostEntity } from '../../../core/posts/post.entity';
import type { RawRows } from '../../../database/raw-rows';
import { storedDocumentOf, type StoredEventDocument } from '../derived/documents/stored-event-document';
import { EventDetailsEntity } from './event-details.entity';

/** An event's post row and its details row, read together. */
export interface EventRecord {
  post: PostEntity;
  details: EventDetailsEntity;
  /** Its stored document, where the read joined it (undefined: not read; null: the event has no row). */
  document?: StoredEventDocument | null;
}

/** The record in a row read with the posts as `p` and the details as `d` (and a stored document, where joined). */
export function recordOf(rows: RawRows, row: Record<string, unknown>): EventRecord | null {
  const post = rows.read(PostEntity, 'p', row);
  const details = rows.read(EventDetailsEntity, 'd', row);
  if (!post || !details) return null;
  return 'doc__generation' in row ? { post, details, document: storedDocumentOf(row) } : { post, details };
}
