/**
 * The post types of the calendar, by their stored `posts.type`. The modules that own them register the
 * full definitions; others (a venue filter by event, an event's linked venue) only need the name.
 */
export const CALENDAR_POST_TYPES = {
  event: 'cal_event',
  venue: 'cal_venue',
  organizer: 'cal_organizer',
} as const;

/** The calendar's taxonomies, by their stored `terms.taxonomy`. */
export const CALENDAR_TAXONOMIES = {
  category: 'cal_events_cat',
  tag: 'post_tag',
} as const;
