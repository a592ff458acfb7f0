import { object, type Schema } from '../../../common/http/post-schemas';
import { EVENT_MEMBER_LIST } from './event-members';

/** The members every event object has, whatever the caller (the others may be blanked, never left out). */
const REQUIRED = ['title', 'start_date', 'end_date', 'timezone', 'categories', 'tags'];

/**
 * The OpenAPI `Event` component, made from the catalogue of the event's own members; links, taxonomies and
 * modules add theirs to it where they are declared (`responseSchemaRegistry.addMember`). `json_ld` is the
 * single read's.
 */
export function eventComponentSchema(): Schema {
  const members = Object.fromEntries(EVENT_MEMBER_LIST.map(([name, member]) => [name, member.schema]));
  const head = EVENT_MEMBER_LIST.slice(
    0,
    EVENT_MEMBER_LIST.findIndex(([name]) => name === 'title'),
  ).map(([n]) => n);
  return object({ ...members, json_ld: { type: 'object' } }, [...head, ...REQUIRED]);
}
