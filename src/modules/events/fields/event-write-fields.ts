import type { PostEntity } from '../../../core/posts/post.entity';
import type { CreateEventDto } from '../rest/dto/create-event.dto';
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

/**
 * Every field of `POST /events`, and what it is to a series. A mapped type over the DTO: a field added to
 * `CreateEventDto` fails `tsc` here until it says whether occurrences share it. Fields declared at run time
 * (links, modules' taxonomies and write fields) say so where they are declared; `assertWriteFieldsClassified`
 * refuses to start a service where a documented write field says nothing.
 */
export const EVENT_WRITE_FIELDS: { readonly [K in keyof Required<CreateEventDto>]: SeriesSharing } = {
  title: { series: 'model' },
  description: { series: 'template', stored: ({ post }) => post.content },
  excerpt: { series: 'template', stored: ({ post }) => post.excerpt },
  post_parent: { series: 'template', stored: ({ post }) => post.parentId ?? 0 },
  cost: { series: 'template', stored: ({ details }) => details.cost },
  website: { series: 'template', stored: ({ details }) => details.website },
  show_map: { series: 'template', stored: ({ details }) => details.showMap },
  show_map_link: { series: 'template', stored: ({ details }) => details.showMapLink },
  hide_from_listings: { series: 'template', stored: ({ details }) => details.hideFromListings },
  sticky: { series: 'template', stored: ({ details }) => details.sticky },
  featured: { series: 'template', stored: ({ details }) => details.featured },
  categories: { series: 'terms' },
  tags: { series: 'terms' },
  status: { series: 'model' },
  date: { series: 'model' },
  date_utc: { series: 'model' },
  author: { series: 'model' },
  image: { series: 'model' },
  password: { series: 'model' },
  start_date: { series: 'times' },
  end_date: { series: 'times' },
  timezone: { series: 'times' },
  all_day: { series: 'times' },
  slug: { series: 'own' },
  recurrence: { series: 'lines' },
};

/** The built-in fields a series' template keeps, read from an occurrence as stored. */
export function templateFieldsOf(event: StoredEvent): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, sharing] of Object.entries(EVENT_WRITE_FIELDS as Record<string, SeriesSharing>)) {
    if (sharing.series === 'template') fields[name] = sharing.stored(event);
  }
  return fields;
}
