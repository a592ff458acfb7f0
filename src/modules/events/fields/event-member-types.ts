import type { dateDetails } from '../../../common/dates/time-zone-name';
import type { Schema } from '../../../common/http/post-schemas';
import type { ImageObject } from '../../../core/posts/attachments/image.mapper';
import type { BasePostFields } from '../../../core/posts/post.mapper';
import type { TermObject } from '../../../core/terms/term.mapper';
import type { CostDetails } from '../model/event-cost';

type DateDetails = ReturnType<typeof dateDetails>;

/** The event object's own members (behaviour.md §5), in the order it lists them; links and modules' follow. */
export type EventMembers = BasePostFields & {
  title: string;
  description: string;
  excerpt: string;
  slug: string;
  image: ImageObject | false;
  all_day: boolean;
  start_date: string;
  start_date_details: DateDetails;
  end_date: string;
  end_date_details: DateDetails;
  utc_start_date: string;
  utc_start_date_details: DateDetails;
  utc_end_date: string;
  utc_end_date_details: DateDetails;
  timezone: string;
  timezone_abbr: string;
  cost: string;
  cost_details: CostDetails;
  website: string;
  show_map: boolean | null;
  show_map_link: boolean | null;
  hide_from_listings: boolean | null;
  sticky: boolean | null;
  featured: boolean | null;
  series_id: number | null;
  recurrence: string[] | null;
  password_protected: boolean;
  categories: TermObject[];
  tags: TermObject[];
};

/**
 * What one member of the event object is in the views made from the object: its response schema (the OpenAPI
 * `Event` component is made of these), what a password-protected event read without its password shows
 * instead (`blank`) and the schema.org property of the event's json_ld that carries it. Declared with the
 * member's other parts in `built-in-fields.ts`.
 */
export interface EventMember<V> {
  readonly schema: Schema;
  readonly blank?: (shown: V) => V;
  readonly jsonLd?: { readonly property: string; readonly value: (shown: V, event: EventMembers) => unknown };
}
