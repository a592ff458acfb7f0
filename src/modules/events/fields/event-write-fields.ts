import type { EventWriteInput } from './event-write-types';
import { BUILT_IN_FIELD_LIST } from './built-in-fields';
import type { SeriesSharing, StoredEvent } from './series-sharing';

export type { SeriesSharing, StoredEvent } from './series-sharing';

/**
 * Every built-in field of `POST /events`, and what it is to a series (`built-in-fields.ts` declares it with
 * the field's other parts). Fields declared at run time (links, modules' taxonomies and write fields) say so
 * where they are declared; `assertWriteFieldsClassified` refuses to start a service where a documented write
 * field says nothing.
 */
export const EVENT_WRITE_FIELDS = Object.fromEntries(
  BUILT_IN_FIELD_LIST.flatMap(([name, field]) => (field.write ? [[name, field.write]] : [])),
) as { readonly [K in keyof Required<EventWriteInput>]: SeriesSharing };

const TEMPLATE_FIELDS = Object.entries(EVENT_WRITE_FIELDS as Record<string, SeriesSharing>).flatMap(
  ([name, sharing]) => (sharing.series === 'template' ? [{ name, sharing }] : []),
);

/** The built-in fields a series' template keeps, read from an occurrence as stored. */
export function templateFieldsOf(event: StoredEvent): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const { name, sharing } of TEMPLATE_FIELDS) fields[name] = sharing.stored(event);
  return fields;
}
