import type { PostFieldsDto } from '../../../../core/posts/dto/post-fields.dto';
import type { EventMember, EventMembers } from '../event-member-types';
import type { EventWriteFields } from '../event-write-types';
import type { SeriesSharing } from '../series-sharing';
import type { VeventUse } from '../vevent-use';

export type MemberName = keyof EventMembers;
/** The post's shared write fields: `PostFieldsDto` declares their rules, the same for every post type. */
export type PostWriteName = keyof Required<PostFieldsDto>;
/** The event's own write fields, whose rules the catalogue declares. */
export type OwnWriteName = keyof Required<EventWriteFields>;
export type WriteName = PostWriteName | OwnWriteName;
export type BuiltInName = MemberName | WriteName;

/**
 * A write field's part: what it is to a series' occurrences and, for the event's own fields, its validation
 * rule and documentation (a field decorator of `common/validation/fields.ts`), applied to `CreateEventDto` and
 * its update DTO as a module's `writeRule` is.
 */
export type WritePart<K> = SeriesSharing &
  (K extends OwnWriteName ? { readonly rule: PropertyDecorator } : { readonly rule?: undefined });

/**
 * One built-in field of the event, declared once with every part it has: a member of the event object
 * (`member`: response schema, blanking, json_ld) and its part in a VEVENT (`vevent`), and a write field of
 * `POST /events` (`write`: its rule, and what it is to a series' occurrences). Which parts a name must have
 * follows from its type: a member of {@link EventMembers} needs `member` and `vevent`, a write field `write`.
 */
export type BuiltInField<K extends BuiltInName> = (K extends MemberName
  ? { readonly member: EventMember<EventMembers[K]>; readonly vevent: VeventUse<EventMembers[K]> }
  : { readonly member?: undefined; readonly vevent?: undefined }) &
  (K extends WriteName ? { readonly write: WritePart<K> } : { readonly write?: undefined });

/** Checks a group of the catalogue where it is written, so a wrong or missing part is reported on its line. */
export const group = <K extends BuiltInName>(fields: { readonly [P in K]: BuiltInField<P> }) => fields;
