import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsString,
  Matches,
  Max,
  MaxLength,
  MinLength,
  isEmail,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { docText } from '../i18n/doc-text';
import type { Localized } from '../i18n/language';
import { parseDateInput, resolveZone } from '../dates/date-input';
import { parseIdList, parseIdOrSlugList, parseInteger, parseList, parseNumber, parseWpBoolean } from './parsers';
import { reason } from './validation-messages';

/**
 * Composed field decorators: each bundles the OpenAPI description, the WordPress-style parsing of
 * behaviour.md §1 and the validation rules, so a DTO only declares its fields and their limits.
 * Descriptions are given in every language; the OpenAPI document and the namespace index show the
 * caller's.
 */
export interface FieldOptions {
  /** Description in every supported language. */
  description: Localized;
  required?: boolean;
  /** Default applied by the service; documented only. */
  default?: unknown;
  /**
   * For a query parameter: values that exercise it, as a caller sends them. The OpenAPI document lists them
   * (`x-cal-samples`), and the fast-path conformance test runs each against the exact query.
   */
  samples?: readonly string[];
  /**
   * For a query parameter of ids (or slugs): the collection under the namespace whose records sample it
   * (`venues`), documented as `x-cal-samples-of`.
   */
  samplesOf?: string;
}

type SchemaOptions = Omit<ApiPropertyOptions, 'description' | 'required' | 'default'>;

function documented(options: FieldOptions, schema: SchemaOptions): PropertyDecorator {
  const base = { description: docText(options.description), ...schema } as ApiPropertyOptions;
  if (options.default !== undefined) Object.assign(base, { default: options.default });
  if (options.samples !== undefined) Object.assign(base, { 'x-cal-samples': [...options.samples] });
  if (options.samplesOf !== undefined) Object.assign(base, { 'x-cal-samples-of': options.samplesOf });
  return options.required ? ApiProperty({ ...base, required: true } as ApiPropertyOptions) : ApiPropertyOptional(base);
}

/**
 * Absent optional fields skip validation; `null` does not (class-validator's `IsOptional` would let it
 * through to the services). Where a field is cleared by `""` or `[]`, {@link nullMeans} turns `null`
 * into that first; everywhere else `null` fails the field's own rule, a 400 naming the field.
 */
function presence(required?: boolean): PropertyDecorator {
  return required
    ? IsDefined({ message: reason('required') })
    : ValidateIf((_object: unknown, value: unknown) => value !== undefined);
}

/** `null` read as the field's empty value (`""`, `[]`); registered first, so the field's parser sees it. */
function nullMeans(empty: unknown): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (value === null ? empty : value));
}

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A validator that accepts a list whose every item passes `item`. */
const listOf =
  (item: (value: unknown) => boolean) =>
  (value: unknown): boolean =>
    Array.isArray(value) && value.every(item);

const isPositiveInteger = (value: unknown): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value > 0;

/** A named check with a translated reason; the building block of the fields below. */
function rule(name: string, validate: (value: unknown) => boolean, message: string): PropertyDecorator {
  return ValidateBy({ name, validator: { validate } }, { message });
}

export function IntegerField(options: FieldOptions & { min?: number; max?: number }): PropertyDecorator {
  const rules: PropertyDecorator[] = [IsInt({ message: reason('integer') })];
  if (options.min !== undefined) rules.push(Min(options.min, { message: reason('min', options.min) }));
  if (options.max !== undefined) rules.push(Max(options.max, { message: reason('max', options.max) }));
  return applyDecorators(
    documented(options, { type: 'integer', minimum: options.min, maximum: options.max }),
    Transform(({ value }) => parseInteger(value)),
    presence(options.required),
    ...rules,
  );
}

export function NumberField(options: FieldOptions & { min?: number; max?: number }): PropertyDecorator {
  const rules: PropertyDecorator[] = [
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: reason('number') }),
  ];
  if (options.min !== undefined) rules.push(Min(options.min, { message: reason('min', options.min) }));
  if (options.max !== undefined) rules.push(Max(options.max, { message: reason('max', options.max) }));
  return applyDecorators(
    documented(options, { type: 'number', format: 'double', minimum: options.min, maximum: options.max }),
    Transform(({ value }) => parseNumber(value)),
    presence(options.required),
    ...rules,
  );
}

export function BooleanField(options: FieldOptions): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'boolean' }),
    Transform(({ value }) => parseWpBoolean(value)),
    presence(options.required),
    IsBoolean({ message: reason('boolean') }),
  );
}

export interface StringFieldOptions extends FieldOptions {
  maxLength?: number;
  minLength?: number;
  /** Reject empty or blank strings. */
  notEmpty?: boolean;
  format?: string;
}

export function StringField(options: StringFieldOptions): PropertyDecorator {
  const rules: PropertyDecorator[] = [IsString({ message: reason('string') })];
  if (options.notEmpty) rules.push(Matches(/\S/, { message: reason('not_empty') }));
  if (options.maxLength !== undefined) {
    rules.push(MaxLength(options.maxLength, { message: reason('max_length', options.maxLength) }));
  }
  if (options.minLength !== undefined) {
    rules.push(MinLength(options.minLength, { message: reason('min_length', options.minLength) }));
  }
  return applyDecorators(
    nullMeans(''),
    documented(options, { type: 'string', maxLength: options.maxLength, format: options.format }),
    presence(options.required),
    ...rules,
  );
}

export function EnumField(
  options: FieldOptions & { values: readonly string[]; caseInsensitive?: boolean },
): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'string', enum: [...options.values] }),
    Transform(({ value }: { value: unknown }) =>
      options.caseInsensitive && typeof value === 'string' ? value.toLowerCase() : value,
    ),
    presence(options.required),
    IsIn([...options.values], { message: reason('one_of', options.values.join(', ')) }),
  );
}

export function SlugField(options: FieldOptions): PropertyDecorator {
  return applyDecorators(
    nullMeans(''),
    documented(options, { type: 'string', maxLength: 200 }),
    presence(options.required),
    IsString({ message: reason('string') }),
    MaxLength(200, { message: reason('max_length', 200) }),
  );
}

export interface ListFieldOptions extends FieldOptions {
  /** Refuse an empty list (filters); writes leave it allowed, where it means "none". */
  nonEmpty?: boolean;
  /** At most this many items; {@link MAX_FILTER_ITEMS} when not given. */
  maxItems?: number;
}

/**
 * Items a filter list may hold (`include=`, `categories=`): a mirror asking for pages of ids stays well
 * within it, and one query's `IN` list stays bounded.
 */
export const MAX_FILTER_ITEMS = 500;

/**
 * Items a write's list may hold (an event's categories, tags, organizers): each unknown name creates a
 * record inside the write's transaction, so without a bound one request (1,000 new category names) held
 * the single SQLite writer, and every other write, for seconds.
 */
export const MAX_WRITE_ITEMS = 100;

const nonEmptyRule = (options: ListFieldOptions): PropertyDecorator[] =>
  options.nonEmpty ? [ArrayNotEmpty({ message: reason('not_empty') })] : [];

/** Only lists are counted: a value of another type is already refused by the field's own rule, once. */
const sizeRule = (max: number): PropertyDecorator =>
  rule('maxItems', (value) => !Array.isArray(value) || value.length <= max, reason('max_items', max));

/** A list of IDs: `a[]=1&a[]=2`, `a[0]=1`, `a=1,2` or a JSON array. */
export function IdListField(options: ListFieldOptions): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'integer', isArray: true, maxItems: options.maxItems ?? MAX_FILTER_ITEMS }),
    Transform(({ value }) => parseIdList(value)),
    presence(options.required),
    IsArray({ message: reason('list_of_ids') }),
    ...nonEmptyRule(options),
    sizeRule(options.maxItems ?? MAX_FILTER_ITEMS),
    IsInt({ each: true, message: reason('list_of_ids') }),
    Min(1, { each: true, message: reason('list_of_ids') }),
  );
}

/** A list of strings (for example slugs), each at most `maxLength` long. */
export function StringListField(options: ListFieldOptions & { maxLength: number }): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'string', isArray: true, maxItems: options.maxItems ?? MAX_FILTER_ITEMS }),
    Transform(({ value }) => parseList(value)),
    presence(options.required),
    IsArray({ message: reason('string') }),
    ...nonEmptyRule(options),
    sizeRule(options.maxItems ?? MAX_FILTER_ITEMS),
    IsString({ each: true, message: reason('string') }),
    MaxLength(options.maxLength, { each: true, message: reason('max_length', options.maxLength) }),
  );
}

/** A list whose items are IDs or slugs (digit-only items are IDs). */
export function IdOrSlugListField(options: ListFieldOptions): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'string', isArray: true, maxItems: options.maxItems ?? MAX_FILTER_ITEMS }),
    Transform(({ value }) => parseIdOrSlugList(value)),
    presence(options.required),
    IsArray({ message: reason('list_of_ids_or_slugs') }),
    ...nonEmptyRule(options),
    sizeRule(options.maxItems ?? MAX_FILTER_ITEMS),
    rule(
      'isIdOrSlugList',
      listOf((item) => isPositiveInteger(item) || (typeof item === 'string' && SLUG_PATTERN.test(item))),
      reason('list_of_ids_or_slugs'),
    ),
  );
}

/** A list of values from a fixed set (for example post statuses). */
export function EnumListField(options: ListFieldOptions & { values: readonly string[] }): PropertyDecorator {
  return applyDecorators(
    documented(options, {
      type: 'string',
      isArray: true,
      enum: [...options.values],
      maxItems: options.maxItems ?? MAX_FILTER_ITEMS,
    }),
    Transform(({ value }) => parseList(value)),
    presence(options.required),
    IsArray({ message: reason('list_of', options.values.join(', ')) }),
    ...nonEmptyRule(options),
    sizeRule(options.maxItems ?? MAX_FILTER_ITEMS),
    IsIn([...options.values], { each: true, message: reason('list_of', options.values.join(', ')) }),
  );
}

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/** An http(s) URL; `''` is accepted where it clears a stored value. */
export function UrlField(options: FieldOptions & { allowEmpty?: boolean }): PropertyDecorator {
  return applyDecorators(
    nullMeans(''),
    documented(options, { type: 'string', format: 'uri', maxLength: 2048 }),
    presence(options.required),
    IsString({ message: reason('url') }),
    MaxLength(2048, { message: reason('max_length', 2048) }),
    rule(
      'isHttpUrl',
      (value: unknown) => typeof value === 'string' && ((options.allowEmpty && value === '') || isHttpUrl(value)),
      reason('url'),
    ),
  );
}

/** An e-mail address; `''` is accepted where it clears a stored value. */
export function EmailField(options: FieldOptions & { allowEmpty?: boolean }): PropertyDecorator {
  return applyDecorators(
    nullMeans(''),
    documented(options, { type: 'string', format: 'email', maxLength: 100 }),
    presence(options.required),
    IsString({ message: reason('email') }),
    MaxLength(100, { message: reason('max_length', 100) }),
    rule(
      'isEmailOrEmpty',
      (value: unknown) => typeof value === 'string' && ((options.allowEmpty && value === '') || isEmail(value)),
      reason('email'),
    ),
  );
}

/**
 * A date in any form behaviour.md §6 accepts (`YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD`,
 * ISO 8601, unix timestamp). The service reads it in the right time zone; this only checks the form.
 */
export function DateTimeField(options: FieldOptions): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'string', example: '2026-05-01 19:30:00' }),
    presence(options.required),
    rule('isCalendarDateTime', (value: unknown) => parseDateInput(value, 'UTC') !== null, reason('date_time')),
  );
}

/** A calendar day as `YYYY-MM-DD` (a real one: no 30 February), for date windows. */
export function DayField(options: FieldOptions): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'string', format: 'date', example: '2027-01-31' }),
    presence(options.required),
    rule('isDay', (value: unknown) => typeof value === 'string' && isDay(value), reason('day')),
  );
}

/** A real calendar day as `YYYY-MM-DD`, year 1000 or later. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || text < '1000') return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}

/**
 * An image: the id of an existing attachment, or an http(s) URL to record as one. `''`, `0`, `false`
 * or null remove the image.
 */
export function ImageField(options: FieldOptions): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'string' }),
    Transform(({ value }: { value: unknown }) => {
      if (value === false || value === 0 || value === '0' || value === '' || value === 'false') return null;
      if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
      return value;
    }),
    rule(
      'isImageReference',
      (value: unknown) =>
        value === null ||
        value === undefined ||
        isPositiveInteger(value) ||
        (typeof value === 'string' && value.length <= 2048 && isHttpUrl(value)),
      reason('image'),
    ),
  );
}

/** A time zone: an IANA name or `UTC±N`. */
export function TimeZoneField(options: FieldOptions): PropertyDecorator {
  return applyDecorators(
    documented(options, { type: 'string', example: 'Europe/Berlin' }),
    presence(options.required),
    rule(
      'isTimeZone',
      (value: unknown) => typeof value === 'string' && resolveZone(value) !== null,
      reason('time_zone'),
    ),
  );
}

const MAX_TEXT_LIST_ITEMS = 20;

/** A finite number as text, a string as it is; anything else unchanged (and refused by the rule). */
const textOf = (value: unknown): unknown =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : value;

/**
 * Free text that clients may also send as a number (a cost of `25`) or as a list of such values
 * (`["0$", "20$", "30$"]`, as the reference stores several costs), which is kept joined by `, `.
 */
export function TextOrNumberField(options: FieldOptions & { maxLength: number }): PropertyDecorator {
  return applyDecorators(
    nullMeans(''),
    documented(options, { type: 'string', maxLength: options.maxLength }),
    Transform(({ value }: { value: unknown }) => {
      if (!Array.isArray(value)) return textOf(value);
      const items = value.map(textOf);
      return items.length <= MAX_TEXT_LIST_ITEMS && items.every((item) => typeof item === 'string')
        ? items.join(', ')
        : value;
    }),
    presence(options.required),
    IsString({ message: reason('string') }),
    MaxLength(options.maxLength, { message: reason('max_length', options.maxLength) }),
  );
}

/** Splits a string as CSV; keeps array items whole (a name may contain a comma); digits become ids. */
function parseReferences(value: unknown): unknown {
  const items = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value.split(',')
      : typeof value === 'number'
        ? [value]
        : null;
  if (items === null) return value;
  return items
    .map((item: unknown) => (typeof item === 'string' ? item.trim() : item))
    .filter((item) => item !== '')
    .map((item) => (typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item));
}

/** Terms by id or by name/slug (unknown names create the term on writes). */
export function TermReferencesField(options: FieldOptions): PropertyDecorator {
  return applyDecorators(
    nullMeans([]),
    documented(options, { type: 'integer', isArray: true, maxItems: MAX_WRITE_ITEMS }),
    Transform(({ value }: { value: unknown }) => parseReferences(value)),
    presence(options.required),
    IsArray({ message: reason('list_of_ids_or_slugs') }),
    sizeRule(MAX_WRITE_ITEMS),
    rule(
      'isTermReferenceList',
      listOf((item) => isPositiveInteger(item) || (typeof item === 'string' && item.length <= 200)),
      reason('list_of_ids_or_slugs'),
    ),
  );
}

/**
 * Linked records (venues, organizers) by id, `{id}` object, or an object of the record's own fields
 * (validated and created, or reused, by the service); a single value, a CSV of ids or a list, in order.
 */
export function LinkedRecordsField(options: FieldOptions): PropertyDecorator {
  return applyDecorators(
    nullMeans([]),
    documented(options, { type: 'integer', isArray: true, maxItems: MAX_WRITE_ITEMS }),
    Transform(({ value }: { value: unknown }) =>
      value !== null && typeof value === 'object' && !Array.isArray(value) ? [value] : parseReferences(value),
    ),
    presence(options.required),
    IsArray({ message: reason('linked_records') }),
    sizeRule(MAX_WRITE_ITEMS),
    rule(
      'isLinkedRecordList',
      listOf((item) => isPositiveInteger(item) || (typeof item === 'object' && item !== null && !Array.isArray(item))),
      reason('linked_records'),
    ),
  );
}

/**
 * RFC 5545 lines of a series (behaviour.md §11): a list of strings, `null` read as `[]` (no series). The
 * lines themselves are read by the series writer, which knows the event's zone.
 */
export function RecurrenceLinesField(
  options: FieldOptions & { maxItems: number; maxLength: number },
): PropertyDecorator {
  return applyDecorators(
    nullMeans([]),
    documented(options, {
      type: 'array',
      items: { type: 'string', maxLength: options.maxLength },
      maxItems: options.maxItems,
      nullable: true,
      example: ['RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270630T235959Z', 'EXDATE:20261229T190000'],
    }),
    presence(options.required),
    rule(
      'isLineList',
      listOf((item) => typeof item === 'string'),
      reason('list_of', 'RFC 5545 lines'),
    ),
    rule(
      'maxLines',
      (value) => Array.isArray(value) && value.length <= options.maxItems,
      reason('max_items', options.maxItems),
    ),
    MaxLength(options.maxLength, { each: true, message: reason('max_length', options.maxLength) }),
  );
}
