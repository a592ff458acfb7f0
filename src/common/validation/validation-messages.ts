import type { Language, Localized } from '../i18n/language';

/** Reasons a single parameter can be rejected; `{arg}` is the rule's limit or list. */
export const VALIDATION_MESSAGES = {
  en: {
    required: 'is required',
    integer: 'must be an integer',
    number: 'must be a number',
    boolean: 'must be a boolean (true, false, 1 or 0)',
    string: 'must be a string',
    not_empty: 'must not be empty',
    min: 'must be at least {arg}',
    max: 'must be at most {arg}',
    max_length: 'must be at most {arg} characters long',
    max_items: 'must hold at most {arg} items',
    min_length: 'must be at least {arg} characters long',
    refused_url: 'is refused: it {arg}',
    one_of: 'must be one of: {arg}',
    list_of_ids: 'must be a list of positive integer IDs',
    list_of_ids_or_slugs: 'must be a list of IDs or slugs',
    list_of: 'must be a list of: {arg}',
    slug: 'must contain only lower-case letters, digits and hyphens',
    url: 'must be an http(s) URL',
    email: 'must be an e-mail address',
    date_time: 'must be a date such as 2025-01-31 18:00:00',
    time_zone: 'must be a time zone such as Europe/Berlin or UTC+2',
    object: 'must be an object',
    unknown_id: 'does not exist',
    linked_records: 'must be IDs, {id} objects or objects of the record fields',
    not_supported: 'is not supported without the optional module',
    needs_pair: 'must be given together with {arg}',
    image: 'must be the ID of an image attachment or an http(s) URL',
    not_allowed: 'is not allowed for you',
    end_before_start: 'must not be before start_date',
    unknown_ids: 'contains IDs that do not exist: {arg}',
    control_character: 'must not contain control characters (U+{arg}); tab and line breaks are allowed',
    unknown_items: 'contains entries that do not exist: {arg}',
    parent_cycle: 'cannot be the record itself or one of its descendants',
    invalid: 'is not valid',
    recurrence: 'is not a series this service keeps: {arg}',
    series_scope: 'changes the whole series: send it to the first occurrence, or with scope=all or scope=following',
    off_series_rule:
      "moves occurrences off the series' rule: send new recurrence lines with the times, or edit with scope=this",
    day: 'must be a day such as 2027-01-31',
    ignore_rule: 'must be rules such as event:52, venue:*, title:*webinar* (at most 200 characters each)',
  },
  de: {
    required: 'ist erforderlich',
    integer: 'muss eine ganze Zahl sein',
    number: 'muss eine Zahl sein',
    boolean: 'muss ein Wahrheitswert sein (true, false, 1 oder 0)',
    string: 'muss eine Zeichenkette sein',
    not_empty: 'darf nicht leer sein',
    min: 'muss mindestens {arg} sein',
    max: 'darf höchstens {arg} sein',
    max_length: 'darf höchstens {arg} Zeichen lang sein',
    max_items: 'darf höchstens {arg} Einträge enthalten',
    min_length: 'muss mindestens {arg} Zeichen lang sein',
    refused_url: 'wird abgelehnt: sie {arg}',
    one_of: 'muss einer dieser Werte sein: {arg}',
    list_of_ids: 'muss eine Liste positiver ganzzahliger IDs sein',
    list_of_ids_or_slugs: 'muss eine Liste von IDs oder Slugs sein',
    list_of: 'muss eine Liste dieser Werte sein: {arg}',
    slug: 'darf nur Kleinbuchstaben, Ziffern und Bindestriche enthalten',
    url: 'muss eine http(s)-URL sein',
    email: 'muss eine E-Mail-Adresse sein',
    date_time: 'muss ein Datum wie 2025-01-31 18:00:00 sein',
    time_zone: 'muss eine Zeitzone wie Europe/Berlin oder UTC+2 sein',
    object: 'muss ein Objekt sein',
    unknown_id: 'existiert nicht',
    linked_records: 'muss aus IDs, {id}-Objekten oder Objekten mit den Feldern des Eintrags bestehen',
    not_supported: 'wird ohne das optionale Modul nicht unterstützt',
    needs_pair: 'muss zusammen mit {arg} angegeben werden',
    image: 'muss die ID eines Bildanhangs oder eine http(s)-URL sein',
    not_allowed: 'ist für dich nicht erlaubt',
    end_before_start: 'darf nicht vor start_date liegen',
    unknown_ids: 'enthält IDs, die nicht existieren: {arg}',
    control_character: 'darf keine Steuerzeichen enthalten (U+{arg}); Tabulator und Zeilenumbrüche sind erlaubt',
    unknown_items: 'enthält Einträge, die nicht existieren: {arg}',
    parent_cycle: 'darf weder der Eintrag selbst noch einer seiner Untereinträge sein',
    invalid: 'ist ungültig',
    recurrence: 'ist keine Serie, die dieser Dienst führt: {arg}',
    series_scope: 'ändert die ganze Serie: an den ersten Termin senden oder mit scope=all oder scope=following',
    off_series_rule:
      'verschiebt Termine von der Regel der Serie weg: neue recurrence-Zeilen mitsenden oder mit scope=this ändern',
    day: 'muss ein Tag wie 2027-01-31 sein',
    ignore_rule: 'muss aus Regeln wie event:52, venue:*, title:*webinar* bestehen (je höchstens 200 Zeichen)',
  },
} as const satisfies Record<Language, Record<string, string>>;

export type ValidationMessageKey = keyof (typeof VALIDATION_MESSAGES)['en'];

const TOKEN_PREFIX = 'v:';

/** The key of a reason a module defined (`defineReason`), accepted by `reason()` like the service's own. */
export type ExtensionReasonKey = string & { readonly extensionReason: unique symbol };

const DEFINED_REASONS = new Map<string, Localized>();

/**
 * Adds a reason a parameter can be rejected for, in every language (`{arg}` is the rule's limit or list), at
 * module definition time. A key the service or another module already has is refused.
 */
export function defineReason(key: string, text: Localized): ExtensionReasonKey {
  if (key in VALIDATION_MESSAGES.en || DEFINED_REASONS.has(key) || key.includes('|'))
    throw new Error(`the validation reason "${key}" is defined twice or malformed`);
  DEFINED_REASONS.set(key, text);
  return key as ExtensionReasonKey;
}

/**
 * Encodes a reason as a token class-validator carries as its message; the error filter decodes and
 * translates it for the caller, so DTOs never hold language-specific text.
 */
export function reason(key: ValidationMessageKey | ExtensionReasonKey, arg?: string | number): string {
  return arg === undefined ? `${TOKEN_PREFIX}${key}` : `${TOKEN_PREFIX}${key}|${arg}`;
}

export function translateReason(message: string, language: Language): string {
  if (!message.startsWith(TOKEN_PREFIX)) return message;
  const [key, arg] = message.slice(TOKEN_PREFIX.length).split('|', 2) as [string, string | undefined];
  const table: Record<string, string> = VALIDATION_MESSAGES[language];
  const template = table[key] ?? DEFINED_REASONS.get(key)?.[language] ?? VALIDATION_MESSAGES[language].invalid;
  return arg === undefined ? template : template.replace('{arg}', arg);
}

/** Reasons that say a value is of the wrong kind: the others (ranges, lengths) say nothing more then. */
const KIND_REASONS = new Set<string>([
  'integer',
  'number',
  'boolean',
  'string',
  'object',
  'date_time',
  'time_zone',
  'list_of_ids',
  'list_of_ids_or_slugs',
  'list_of',
  'url',
  'email',
  'slug',
  'image',
  'linked_records',
]);

/** Bounds of a value: meaningless to tell while the value is not even of the right kind. */
const BOUND_REASONS = new Set<string>(['min', 'max', 'min_length', 'max_length', 'max_items', 'not_empty']);

/**
 * The reasons worth telling for one parameter: a value of the wrong kind is not also told its bounds
 * (`per_page=many`: "must be an integer", not also "must be at least 1"); every reason once.
 */
export function mainReasons(reasons: readonly string[]): string[] {
  const keyOf = (r: string) => (r.startsWith(TOKEN_PREFIX) ? r.slice(TOKEN_PREFIX.length).split('|', 1)[0] : '');
  const wrongKind = reasons.some((r) => KIND_REASONS.has(keyOf(r)));
  return [...new Set(wrongKind ? reasons.filter((r) => !BOUND_REASONS.has(keyOf(r))) : reasons)];
}
