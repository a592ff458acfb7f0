import { object, type Schema } from '../../../common/http/post-schemas';
import { EVENT_MEMBER_LIST } from './event-members';

/**
 * The OpenAPI `Event` component, made from the catalogue of the event's own members; links, taxonomies and
 * modules add theirs to it where they are declared (`responseSchemaRegistry.addMember`). `json_ld` is the
 * single read's. Every member of the catalogue is required: an event object has each of them whatever the
 * caller (a protected event's are blanked, never left out), so a client may rely on all of them.
 */
export function eventComponentSchema(): Schema {
  const members = Object.fromEntries(EVENT_MEMBER_LIST.map(([name, member]) => [name, member.schema]));
  return object(
    { ...members, json_ld: { type: 'object' } },
    EVENT_MEMBER_LIST.map(([name]) => name),
  );
}
