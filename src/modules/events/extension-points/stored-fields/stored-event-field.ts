import type { Localized } from '../../../../common/i18n/language';

/** A comparison a stored field's list filter makes: `min_capacity=40` is `>=`. */
export type StoredFieldComparison = '>=' | '<=' | '=';

/**
 * An event field a module stores with the service's own rows (`event_field_values`): no table, migration, save
 * or read of its own. `StoredEventFieldModule.forField()` declares everything from this: the write rule (with
 * `null` and `""` clearing the value), the event's member, the series' sharing, the json_ld and iCalendar
 * properties, the TEC and iCalendar imports, and its list filters (which, as every module's filter, never match
 * what a password hides from the caller).
 */
export interface StoredEventFieldDefinition {
  /** The event's member and write field. */
  name: string;
  /** `integer` and `boolean` are indexed for filters; `text` holds up to `maxLength` (at most 2,048) characters. */
  type: 'integer' | 'boolean' | 'text';
  description: Localized;
  min?: number;
  max?: number;
  maxLength?: number;
  /** Whether a series' occurrences share it (the default) or each keeps its own. */
  series?: 'template' | 'own';
  /** Its schema.org property in the event's json_ld. */
  jsonLd?: string;
  /** Its iCalendar property (an `X-` name); imports read it back. */
  ical?: string;
  /** List filters of `GET /events` over it: `{ param: 'min_capacity', compare: '>=' }`. */
  filters?: {
    param: string;
    compare: StoredFieldComparison;
    description: Localized;
    /** Values that exercise it (the fast-path test runs them); an integer or boolean filter has its own. */
    samples?: readonly string[];
  }[];
}

export type StoredValue = number | boolean | string;

/** A value as text: the feeds' and the text column's form of it. */
export function storedText(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}
