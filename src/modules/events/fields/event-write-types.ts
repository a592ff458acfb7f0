import type { PostFieldsDto } from '../../../core/posts/dto/post-fields.dto';

/**
 * The event's own write fields of `POST /events` (contract §2.1, with behaviour.md §6's `password` and
 * `post_parent`), as the DTO types them. Each one's rule, and what it is to a series, is declared with its
 * other parts in `built-in-fields.ts`; the post's shared fields (`title`'s neighbours `slug`, `status`, …)
 * come with their rules from `PostFieldsDto`.
 */
export interface EventWriteFields {
  title: string;
  excerpt?: string;
  timezone?: string;
  all_day?: boolean;
  start_date: string | number;
  end_date: string | number;
  cost?: string;
  website?: string;
  show_map?: boolean;
  show_map_link?: boolean;
  hide_from_listings?: boolean;
  sticky?: boolean;
  featured?: boolean;
  categories?: (number | string)[];
  tags?: (number | string)[];
  password?: string;
  post_parent?: number;
  recurrence?: string[];
}

/** Every built-in write field of `POST /events`: the post's shared ones and the event's own. */
export type EventWriteInput = PostFieldsDto & EventWriteFields;
