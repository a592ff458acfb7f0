import type { EventMember } from './event-member-types';
import type { SeriesSharing } from './series-sharing';
import type { VeventUse } from './vevent-use';
import type { BuiltInField, BuiltInName } from './built-in/built-in-field';
import { CONTENT_FIELDS } from './built-in/content-fields';
import { DETAIL_FIELDS } from './built-in/detail-fields';
import { HEAD_FIELDS } from './built-in/head-fields';
import { SERIES_AND_TERM_FIELDS } from './built-in/series-and-term-fields';
import { TIME_FIELDS } from './built-in/time-fields';

export type { BuiltInField } from './built-in/built-in-field';

/**
 * Every built-in field of the event, declared once with all its parts, in the event object's order (write-only
 * fields where their neighbours are), written in groups (`built-in/`). A mapped type: a member the mapper adds,
 * or a write field `EventWriteFields` gains, fails `tsc` here until it says what it is on every path. The
 * object's views (`event-members.ts`), the feeds (`ical/vevent-members.ts`), the write DTO and series
 * (`event-write-fields.ts`) read their parts from here.
 */
export const BUILT_IN_FIELDS: { readonly [K in BuiltInName]: BuiltInField<K> } = {
  ...HEAD_FIELDS,
  ...CONTENT_FIELDS,
  ...TIME_FIELDS,
  ...DETAIL_FIELDS,
  ...SERIES_AND_TERM_FIELDS,
};

/** The built-in fields in the catalogue's order, each with its parts. */
export const BUILT_IN_FIELD_LIST = Object.entries(BUILT_IN_FIELDS) as [
  BuiltInName,
  {
    member?: EventMember<unknown>;
    vevent?: VeventUse<unknown>;
    write?: SeriesSharing & { rule?: PropertyDecorator };
  },
][];

/**
 * Gives a write DTO the event's own write fields, each with the rule its catalogue entry declares, as a
 * module's `declareEventField` gives it a module's (the post's shared fields come with `PostFieldsDto`).
 */
export function applyWriteRules(dto: { prototype: object }): void {
  for (const [name, field] of BUILT_IN_FIELD_LIST) field.write?.rule?.(dto.prototype, name);
}
