import { utcDateOf } from '../../ical/vevent-times';
import { icalText } from '../../ical/ical-text';
import { modifiedProperties, statusProperties } from '../../ical/vevent-writers';
import { group } from './built-in-field';
import { HEAD, model, none } from './parts';

/** The post's head: ids, author, status, dates and addresses, as every post type has them. */
export const HEAD_FIELDS = group({
  id: { member: HEAD('id'), vevent: none('UID carries the global id, which survives a move between sites') },
  global_id: { member: HEAD('global_id'), vevent: { property: 'UID', write: (id) => ({ id: String(id) }) } },
  global_id_lineage: {
    member: HEAD('global_id_lineage'),
    vevent: none('the ids the event had before: UID is the current one'),
  },
  author: { member: HEAD('author'), vevent: none('a user id of this site'), write: model },
  status: {
    member: {
      ...HEAD('status'),
      jsonLd: { property: 'eventStatus', value: () => 'https://schema.org/EventScheduled' },
    },
    vevent: { property: 'STATUS', write: (status) => statusProperties(status) },
    write: model,
  },
  date: { member: HEAD('date'), vevent: none('CREATED carries date_utc'), write: model },
  date_utc: {
    member: HEAD('date_utc'),
    vevent: {
      property: 'CREATED',
      write: (date) => ({ created: typeof date === 'string' ? utcDateOf(date) : undefined }),
    },
    write: model,
  },
  modified: { member: HEAD('modified'), vevent: none('LAST-MODIFIED carries modified_utc') },
  modified_utc: {
    member: HEAD('modified_utc'),
    vevent: { property: 'LAST-MODIFIED', write: (own, _event, context) => modifiedProperties(String(own), context) },
  },
  url: {
    member: { ...HEAD('url'), jsonLd: { property: 'url', value: (url) => url } },
    vevent: { property: 'URL', write: (url) => ({ url: typeof url === 'string' ? icalText(url) : undefined }) },
  },
  rest_url: { member: HEAD('rest_url'), vevent: none("the service's own address of the event") },
});
