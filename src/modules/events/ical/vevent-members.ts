import type { EventMembers } from '../fields/event-member-types';
import { BUILT_IN_FIELD_LIST } from '../fields/built-in-fields';
import type { VeventUse } from '../fields/vevent-use';

/**
 * The members of the event object in its order, each with its part in a VEVENT (`built-in-fields.ts`):
 * `toICalEventData` writes the VEVENT from these; test/e2e/field-catalogue checks each write field's property
 * in a feed and its round trip.
 */
export const VEVENT_MEMBER_LIST = BUILT_IN_FIELD_LIST.flatMap(([name, field]) =>
  field.vevent ? [[name, field.vevent] as [keyof EventMembers, VeventUse<unknown>]] : [],
);
