import type { PostEntity } from '../../../core/posts/post.entity';
import type { EventDetailsEntity } from '../model/event-details.entity';

/** An occurrence as stored: what a series' template reads its shared fields from. */
export interface StoredEvent {
  post: PostEntity;
  details: EventDetailsEntity;
}

/**
 * What a write field is to the occurrences of a series (behaviour.md §11):
 * - `template`: every occurrence shares it; the series keeps it in its template (read back from an occurrence as
 *   stored, `stored`) for the occurrences it adds later, and an edit with `scope=following|all` writes it to all;
 * - `terms`: as `template`, kept as term ids by the event's taxonomy (`EventTaxonomyRegistry`);
 * - `model`: every occurrence shares it, but a new occurrence copies it from the first one's post as stored (the
 *   post's own fields: a hashed password, a fetched image), never from the template;
 * - `times`: each occurrence's own, moved by the series' rule and offsets;
 * - `own`: each occurrence's own value, never written to the others (a slug);
 * - `lines`: the series' rule itself.
 */
export type SeriesSharing =
  | { readonly series: 'template'; stored(event: StoredEvent): unknown }
  | { readonly series: 'terms' | 'model' | 'times' | 'own' | 'lines' };
