import { BUILT_IN_FIELD_LIST } from './built-in-fields';
import type { EventMember, EventMembers } from './event-member-types';

export type { EventMember, EventMembers } from './event-member-types';

/**
 * The members of the event object in its order, each with its declaration (`built-in-fields.ts`). The
 * OpenAPI component, the blanking of protected events and the json_ld are made from these.
 */
export const EVENT_MEMBER_LIST = BUILT_IN_FIELD_LIST.flatMap(([name, field]) =>
  field.member ? [[name, field.member] as [keyof EventMembers, EventMember<unknown>]] : [],
);

/** The members a protected event read without its password shows blanked, with what it shows instead. */
export const BLANKED_MEMBERS = EVENT_MEMBER_LIST.flatMap(([name, member]) =>
  member.blank ? [{ name, blank: member.blank }] : [],
);

/** The members its json_ld carries, in the object's order. */
export const JSON_LD_MEMBERS = EVENT_MEMBER_LIST.flatMap(([name, member]) =>
  member.jsonLd ? [{ name, ...member.jsonLd }] : [],
);
