import type { OpenAPIObject } from '@nestjs/swagger';
import { docText } from '../common/i18n/doc-text';
import {
  documentedProperties,
  documentedSchema,
  type DocumentedSchema,
} from '../common/validation/documented-properties';
import { ImportOptionsDto } from '../modules/imports/dto/import-options.dto';
import { responseSchemaRegistry, type ResourceResponseSchemas } from '../common/http/response-schema-registry';

import {
  arrayOf,
  bool,
  DATE,
  EXAMPLE_DAY,
  IMAGE,
  int,
  object,
  POST_HEAD,
  ref,
  str,
  type Schema,
} from '../common/http/post-schemas';

const LINKED_OPTIONAL = { description: str, excerpt: str, slug: str, image: IMAGE };

/**
 * The schema of a linked post type's object (behaviour.md §8): the post head, its name under `nameKey`, the
 * optional description, excerpt, slug and image, then `members` (a module's `openApi.schema`).
 */
export function linkedObjectSchema(nameKey: string, members: Record<string, Schema>): Schema {
  return object({ ...POST_HEAD, [nameKey]: str, ...LINKED_OPTIONAL, ...members, json_ld: { type: 'object' } }, [
    ...Object.keys(POST_HEAD),
    nameKey,
  ]);
}

/** Response schemas, by component name: the objects of behaviour.md §5, §8 and §9 and the error body. */
const SCHEMAS: Record<string, Schema> = {
  Error: {
    description: docText({
      en: 'Every error: the HTTP status is `data.status`; `data.params` names the parameters at fault.',
      de: 'Jeder Fehler: der HTTP-Status ist `data.status`; `data.params` nennt die fehlerhaften Parameter.',
    }),
    ...object({
      code: str,
      message: str,
      data: {
        type: 'object',
        properties: {
          status: int,
          request_id: str,
          params: {
            oneOf: [arrayOf(str), { type: 'object', additionalProperties: str }],
          },
        },
        required: ['status', 'request_id'],
      },
    }),
  },
  Term: object(
    {
      id: int,
      name: str,
      slug: str,
      taxonomy: {
        type: 'string',
        description: docText({
          en: '`cal_events_cat` (categories), `post_tag` (tags), or the taxonomy of a module (`cal_audience`).',
          de: '`cal_events_cat` (Kategorien), `post_tag` (Schlagwörter) oder die Taxonomie eines Moduls.',
        }),
      },
      description: str,
      parent: int,
      count: int,
      url: {
        type: 'string',
        format: 'uri',
        description: docText({
          en: "The term's page on the site: through the TEC-compatible alias's term routes only, as the reference sends it.",
          de: 'Die Seite des Begriffs auf der Website: nur über die Begriffsrouten des TEC-kompatiblen Alias, wie die Referenz sie sendet.',
        }),
      },
      urls: object(
        {
          self: { type: 'string', format: 'uri' },
          collection: { type: 'string', format: 'uri' },
          up: { type: 'string', format: 'uri' },
        },
        ['self', 'collection'],
      ),
    },
    ['id', 'name', 'slug', 'taxonomy', 'description', 'count', 'urls'],
  ),
  Venue: object(
    {
      ...POST_HEAD,
      venue: str,
      ...LINKED_OPTIONAL,
      address: str,
      city: str,
      country: str,
      province: str,
      state: str,
      zip: str,
      phone: str,
      stateprovince: str,
      website: str,
      show_map: bool,
      show_map_link: bool,
      json_ld: { type: 'object' },
    },
    [...Object.keys(POST_HEAD), 'venue'],
  ),
  Organizer: object(
    {
      ...POST_HEAD,
      organizer: str,
      ...LINKED_OPTIONAL,
      phone: str,
      website: str,
      email: str,
      json_ld: { type: 'object' },
    },
    [...Object.keys(POST_HEAD), 'organizer'],
  ),
};

/** `GET /changes` (docs/sync-and-webhooks.md). */
const CHANGE_LIST: Schema = object({
  changes: arrayOf(
    object(
      {
        resource: { type: 'string', example: 'event' },
        id: int,
        action: {
          type: 'string',
          enum: ['created', 'updated', 'status_changed', 'trashed', 'untrashed', 'deleted'],
        },
        changed_utc: DATE,
        deleted: {
          type: 'boolean',
          description: docText({
            en: 'A tombstone: deleted, or no longer visible to the caller (trash, draft, private). Remove the local copy.',
            de: 'Ein Grabstein: gelöscht oder für den Aufrufer nicht mehr sichtbar (Papierkorb, Entwurf, privat). Die lokale Kopie entfernen.',
          }),
        },
        object: { type: 'object', description: docText({ en: 'The record now.', de: 'Der Eintrag jetzt.' }) },
      },
      ['resource', 'id', 'action', 'changed_utc', 'deleted'],
    ),
  ),
  next_token: str,
  more: bool,
});

const URI = { type: 'string', format: 'uri' };

/** Webhook endpoints and their deliveries (docs/sync-and-webhooks.md). */
const WEBHOOK_SCHEMAS: Record<string, Schema> = {
  Webhook: object(
    {
      id: int,
      url: URI,
      events: arrayOf(str),
      description: str,
      status: { type: 'string', enum: ['active', 'disabled'] },
      disabled_reason: { type: 'string', nullable: true },
      created_utc: DATE,
      modified_utc: DATE,
      secret: {
        type: 'string',
        description: docText({
          en: 'Only in the answer of the request that set it.',
          de: 'Nur in der Antwort der Anfrage, die es setzt.',
        }),
      },
      urls: object({ self: URI, deliveries: URI }),
    },
    ['id', 'url', 'events', 'description', 'status', 'disabled_reason', 'created_utc', 'modified_utc', 'urls'],
  ),
  WebhookDelivery: object({
    id: str,
    webhook: int,
    type: { type: 'string', example: 'event.updated' },
    resource: str,
    resource_id: int,
    status: { type: 'string', enum: ['pending', 'delivered', 'failed', 'cancelled'] },
    attempts: int,
    next_attempt_utc: { ...DATE, nullable: true },
    last_status: { type: 'integer', nullable: true },
    last_error: { type: 'string', nullable: true },
    changed_utc: DATE,
    created_utc: DATE,
    delivered_utc: { ...DATE, nullable: true },
  }),
};

const IMPORT_ENTRY = object({ id: str, reason: str });
/** What a run (or a preview) did, record by record: its counts and its report. */
const RUN_COUNTS = {
  created: int,
  updated: int,
  unchanged: int,
  trashed: int,
  skipped: arrayOf(IMPORT_ENTRY),
  notes: arrayOf(IMPORT_ENTRY),
  failed: arrayOf(IMPORT_ENTRY),
};

/** Import subscriptions and their runs (docs/importing.md). */
const IMPORT_SCHEMAS: Record<string, Schema> = {
  ImportRun: object(
    {
      id: int,
      subscription: int,
      trigger: { type: 'string', enum: ['schedule', 'manual'] },
      status: { type: 'string', enum: ['running', 'succeeded', 'failed', 'not_modified', 'cancelled'] },
      crashed: {
        type: 'boolean',
        description: docText({
          en: 'Its parse ran out of its budget or its instance stopped under it: its source is not run again unchanged.',
          de: 'Sein Einlesen überschritt sein Budget oder seine Instanz hielt darunter an: seine Quelle wird unverändert nicht erneut ausgeführt.',
        }),
      },
      started_utc: DATE,
      finished_utc: { ...DATE, nullable: true },
      ...RUN_COUNTS,
    },
    ['id', 'subscription', 'trigger', 'status', 'started_utc', 'finished_utc', 'created', 'updated', 'unchanged'],
  ),
  Import: object(
    {
      id: int,
      kind: { type: 'string', enum: ['ical', 'tec'] },
      url: URI,
      description: str,
      user: str,
      has_password: { type: 'boolean' },
      ...importOptionSchemas(),
      interval_minutes: int,
      overwrite: { type: 'string', enum: ['source_wins', 'keep_local_edits'] },
      enabled: { type: 'boolean' },
      failed_runs: {
        ...int,
        description: docText({
          en: 'Runs in a row that failed as a whole.',
          de: 'Aufeinanderfolgende Läufe, die als Ganzes fehlschlugen.',
        }),
      },
      suspended_reason: {
        type: 'string',
        nullable: true,
        description: docText({
          en: 'Why the scheduler no longer runs it (IMPORTS_SUSPEND_AFTER failures in a row); null when it is not suspended. PATCH `enabled: true` resumes it.',
          de: 'Warum der Planer es nicht mehr ausführt (IMPORTS_SUSPEND_AFTER Fehlschläge in Folge); null, wenn es nicht ausgesetzt ist. PATCH `enabled: true` setzt es fort.',
        }),
      },
      suspended_utc: { ...DATE, nullable: true },
      next_run_utc: DATE,
      created_utc: DATE,
      modified_utc: DATE,
      last_run: {
        description: docText({
          en: 'The latest run; null before the first.',
          de: 'Der letzte Lauf; null vor dem ersten.',
        }),
        oneOf: [ref('ImportRun'), { type: 'object', nullable: true, maxProperties: 0 }],
      },
      urls: object({ self: URI, runs: URI, run: URI, preview: URI, ignored: URI }),
    },
    ['id', 'kind', 'url', 'interval_minutes', 'overwrite', 'enabled', 'next_run_utc', 'last_run', 'urls'],
  ),
  ImportPreview: object(
    {
      source: str,
      dry_run: { type: 'boolean' },
      ...RUN_COUNTS,
      cancelled: { type: 'boolean' },
      source_failed: { type: 'boolean' },
      preview: arrayOf(
        object({ id: str, outcome: { type: 'string', enum: ['created', 'updated', 'trashed'] }, title: str }, [
          'id',
          'outcome',
        ]),
      ),
    },
    ['source', 'dry_run', 'created', 'updated', 'unchanged', 'trashed', 'preview'],
  ),
  ImportIgnored: object({ source_id: str, title: str, reason: str, ignored_utc: DATE }, [
    'source_id',
    'reason',
    'ignored_utc',
  ]),
  ImportIgnoredCleared: object({ cleared: int }, ['cleared']),
};

/**
 * The options of a subscription as its answers show them, from their one declaration (`ImportOptionsDto`):
 * a list as a list, any other option its type, `null` when not set.
 */
function importOptionSchemas(): Record<string, Schema> {
  return Object.fromEntries(
    documentedProperties(ImportOptionsDto).map((name) => {
      const {
        isArray,
        enum: values,
        type,
        format,
      } = documentedSchema(ImportOptionsDto, name) as DocumentedSchema & {
        type?: string;
        format?: string;
      };
      const item: Schema = {
        type: type ?? 'string',
        ...(values ? { enum: [...values] } : {}),
        ...(format ? { format } : {}),
      };
      // OpenAPI 3.0: `nullable` does not widen an `enum`, which must name null itself.
      const unset = values ? { nullable: true, enum: [...values, null] } : { nullable: true };
      return [name, isArray ? arrayOf(item) : { ...item, ...unset }];
    }),
  );
}

/** The other routes of an import subscription, each answering its own shape. */
const IMPORT_ROUTES: {
  path: RegExp;
  method: string;
  status: string;
  schema: string;
  text: { en: string; de: string };
}[] = [
  {
    path: /\/preview$/,
    method: 'post',
    status: '200',
    schema: 'ImportPreview',
    text: { en: 'What a run would do, nothing written.', de: 'Was ein Lauf täte; nichts geschrieben.' },
  },
  {
    path: /\/ignored$/,
    method: 'get',
    status: '200',
    schema: 'ImportIgnoredList',
    text: { en: 'One page of ignored records, oldest first.', de: 'Eine Seite ignorierter Einträge, älteste zuerst.' },
  },
  {
    path: /\/ignored$/,
    method: 'delete',
    status: '200',
    schema: 'ImportIgnoredCleared',
    text: { en: 'How many records were cleared.', de: 'Wie viele Einträge entfernt wurden.' },
  },
];

function importRouteResponses(route: (typeof IMPORT_ROUTES)[number]): Record<string, unknown> {
  return {
    [route.status]: {
      description: docText(route.text),
      content: { 'application/json': { schema: ref(route.schema) } },
      ...(route.schema.endsWith('List') ? { headers: { ...TOTAL_HEADERS, ...PAGES_HEADERS } } : {}),
    },
    ...Object.fromEntries(
      [400, 401, 403, 404, 409, 429, 503].map((status) => [
        String(status),
        { description: ERROR_TEXTS[status], content: { 'application/json': { schema: ref('Error') } } },
      ]),
    ),
  };
}

/** Per resource (rest base): the schema of its items and of its list envelope. */
const RESOURCES: Record<string, { item: string; list: string }> = {
  events: { item: 'Event', list: 'EventList' },
  venues: { item: 'Venue', list: 'VenueList' },
  organizers: { item: 'Organizer', list: 'OrganizerList' },
  categories: { item: 'Term', list: 'CategoryList' },
  tags: { item: 'Term', list: 'TagList' },
  webhooks: { item: 'Webhook', list: 'WebhookList' },
  imports: { item: 'Import', list: 'ImportList' },
};

const listSchema = (key: string, item: string): Schema =>
  object(
    {
      [key]: arrayOf(ref(item)),
      rest_url: { type: 'string', format: 'uri' },
      next_rest_url: { type: 'string', format: 'uri' },
      previous_rest_url: { type: 'string', format: 'uri' },
      total: int,
      total_pages: int,
    },
    [key, 'rest_url', 'total', 'total_pages'],
  );

const TOTAL_HEADERS = Object.fromEntries(
  ['X-TEC-Total', 'X-WP-Total'].map((h) => [
    h,
    { schema: int, description: docText({ en: 'Items the caller may see.', de: 'Sichtbare Einträge.' }) },
  ]),
);
const PAGES_HEADERS = Object.fromEntries(
  ['X-TEC-TotalPages', 'X-WP-TotalPages'].map((h) => [
    h,
    { schema: int, description: docText({ en: 'Pages of that size.', de: 'Seiten dieser Größe.' }) },
  ]),
);

const ERROR_TEXTS: Record<number, string> = {
  400: docText({ en: 'Invalid or missing parameters.', de: 'Ungültige oder fehlende Parameter.' }),
  401: docText({ en: 'Credentials needed, or wrong.', de: 'Anmeldung nötig oder falsch.' }),
  403: docText({ en: 'Not allowed, or not readable.', de: 'Nicht erlaubt oder nicht lesbar.' }),
  404: docText({ en: 'No such record or page.', de: 'Kein solcher Eintrag oder keine solche Seite.' }),
  409: docText({
    en: 'In conflict with the current state (an import that is running).',
    de: 'Im Konflikt mit dem aktuellen Stand (ein Import, der gerade läuft).',
  }),
  410: docText({ en: 'Already in the trash.', de: 'Bereits im Papierkorb.' }),
  412: docText({
    en: 'If-Match or If-Unmodified-Since failed: the record changed since it was read.',
    de: 'If-Match oder If-Unmodified-Since schlug fehl: der Eintrag wurde seit dem Lesen geändert.',
  }),
  413: docText({ en: 'Body too large.', de: 'Inhalt zu groß.' }),
  415: docText({ en: 'Body neither JSON nor a form.', de: 'Inhalt weder JSON noch Formular.' }),
  429: docText({ en: 'Too many failed attempts; see Retry-After.', de: 'Zu viele Fehlversuche; siehe Retry-After.' }),
  503: docText({ en: 'The database is unavailable.', de: 'Die Datenbank ist nicht verfügbar.' }),
};

type Kind = 'list' | 'create' | 'read' | 'update' | 'delete';

const ERRORS_BY_KIND: Record<Kind, number[]> = {
  list: [400, 401, 404, 429, 503],
  create: [400, 401, 403, 413, 415, 429, 503],
  read: [400, 401, 403, 404, 429, 503],
  update: [400, 401, 403, 404, 412, 413, 415, 429, 503],
  delete: [400, 401, 403, 404, 410, 412, 429, 503],
};

/** Posts (not terms, webhooks or imports) are trashed, or with `force=true` deleted for good. */
const isPostItem = (item: string): boolean => !['Term', 'Webhook', 'Import'].includes(item);

/** A post's DELETE answer: the trashed record, or `{deleted: true, previous}` after `force=true` (DeletedRecord). */
const deletedOrTrashed = (item: string): Schema => ({
  oneOf: [
    ref(item),
    object({
      deleted: { type: 'boolean', enum: [true] },
      previous: { ...ref(item), description: docText({ en: 'The record as it was.', de: 'Der Eintrag, wie er war.' }) },
    }),
  ],
});

const OK_TEXTS: Record<Kind, string> = {
  list: docText({ en: 'One page of the list.', de: 'Eine Seite der Liste.' }),
  create: docText({ en: 'The created record.', de: 'Der angelegte Eintrag.' }),
  read: docText({ en: 'The record.', de: 'Der Eintrag.' }),
  update: docText({ en: 'The record as stored now.', de: 'Der Eintrag, wie er jetzt gespeichert ist.' }),
  delete: docText({
    en: 'The trashed record (status "trash"); after force=true, {deleted: true, previous} with the record as it was.',
    de: 'Der verworfene Eintrag (Status "trash"); nach force=true {deleted: true, previous} mit dem Eintrag, wie er war.',
  }),
};

const NOT_MODIFIED = {
  description: docText({
    en: 'The copy named by If-None-Match or If-Modified-Since is current.',
    de: 'Die mit If-None-Match oder If-Modified-Since benannte Kopie ist aktuell.',
  }),
};

/** The change feed: its page, the parameter errors, 410 for an expired token. */
const CHANGES_RESPONSES: Record<string, unknown> = {
  '200': {
    description: docText({ en: 'One page of changes.', de: 'Eine Seite Änderungen.' }),
    content: { 'application/json': { schema: ref('ChangeList') } },
  },
  ...Object.fromEntries(
    [400, 401, 429, 503].map((status) => [
      String(status),
      { description: ERROR_TEXTS[status], content: { 'application/json': { schema: ref('Error') } } },
    ]),
  ),
  '410': {
    description: docText({
      en: 'The sync token is older than the change log keeps: download everything again and sync from a new token.',
      de: 'Das Sync-Token ist älter als das Änderungsprotokoll: alles neu laden und ab einem neuen Token synchronisieren.',
    }),
    content: { 'application/json': { schema: ref('Error') } },
  },
};

/** iCalendar feeds (docs/calendar-clients.md): the calendar, 304 for a current copy, the list's errors. */
const FEED_RESPONSES: Record<string, unknown> = {
  '200': {
    description: docText({
      en: 'The events as iCalendar (RFC 5545).',
      de: 'Die Veranstaltungen als iCalendar (RFC 5545).',
    }),
    content: { 'text/calendar': { schema: { type: 'string' } } },
  },
  '304': NOT_MODIFIED,
  ...Object.fromEntries(
    [...new Set([...ERRORS_BY_KIND.list, ...ERRORS_BY_KIND.read])]
      .sort()
      .map((status) => [
        String(status),
        { description: ERROR_TEXTS[status], content: { 'application/json': { schema: ref('Error') } } },
      ]),
  ),
};

/** Request bodies Swagger UI's "Try it out" can send as they are (its own samples would fail validation). */
const EXAMPLES: Record<string, { create: Schema; update: Schema }> = {
  events: {
    create: {
      title: 'Jazz Night',
      start_date: `${EXAMPLE_DAY} 19:30:00`,
      end_date: `${EXAMPLE_DAY} 22:00:00`,
      timezone: 'Europe/Berlin',
      cost: '15€',
      categories: ['Concerts'],
      venue: { venue: 'Blue Note Hall', city: 'Berlin' },
    },
    update: { title: 'Jazz Night (sold out)' },
  },
  venues: { create: { venue: 'Blue Note Hall', city: 'Berlin', country: 'Germany' }, update: { phone: '+49 30 1234' } },
  organizers: {
    create: { organizer: 'Night Owls', email: 'hello@example.org' },
    update: { website: 'https://example.org' },
  },
  categories: { create: { name: 'Concerts' }, update: { name: 'Concerts and gigs' } },
  tags: { create: { name: 'jazz' }, update: { name: 'jazz and blues' } },
  imports: {
    create: { kind: 'ical', url: 'https://93.184.216.34/calendar.ics', categories: ['Partner'], interval_minutes: 120 },
    update: { overwrite: 'keep_local_edits' },
  },
};

function kindOf(path: string, method: string, resource: string, collectionPath?: boolean): Kind | null {
  // `/events/hidden` is a list of events too.
  const collection = collectionPath ?? (path.endsWith(`/${resource}`) || path.endsWith(`/${resource}/hidden`));
  if (collection) return method === 'get' ? 'list' : method === 'post' ? 'create' : null;
  if (method === 'get') return 'read';
  if (method === 'delete') return 'delete';
  return ['post', 'put', 'patch'].includes(method) ? 'update' : null;
}

/**
 * An import's runs (`GET …/runs`), one run (`GET …/runs/{run}`) or a run started now (`POST …/run`: 202, or
 * 200 with `wait=true`).
 */
function runResponses(list: boolean, started: boolean): Record<string, unknown> {
  return {
    '200': {
      description: list
        ? docText({ en: 'One page of runs, newest first.', de: 'Eine Seite Läufe, neueste zuerst.' })
        : started
          ? docText({ en: 'The finished run (`wait=true`).', de: 'Der beendete Lauf (`wait=true`).' })
          : docText({ en: 'The run.', de: 'Der Lauf.' }),
      content: { 'application/json': { schema: ref(list ? 'ImportRunList' : 'ImportRun') } },
      ...(list ? { headers: { ...TOTAL_HEADERS, ...PAGES_HEADERS } } : {}),
    },
    ...(started
      ? {
          '202': {
            description: docText({
              en: 'The run as started (`running`); it goes on after this answer.',
              de: 'Der Lauf wie begonnen (`running`); er geht nach dieser Antwort weiter.',
            }),
            content: { 'application/json': { schema: ref('ImportRun') } },
            headers: {
              Location: {
                description: docText({
                  en: 'The run’s URL, to follow it.',
                  de: 'Die URL des Laufs, um ihn zu verfolgen.',
                }),
                schema: { type: 'string', format: 'uri' },
              },
            },
          },
        }
      : {}),
    ...Object.fromEntries(
      [400, 401, 403, 404, 409, 429, 503].map((status) => [
        String(status),
        { description: ERROR_TEXTS[status], content: { 'application/json': { schema: ref('Error') } } },
      ]),
    ),
  };
}

/** A webhook's deliveries (`GET …/deliveries`) or a redelivery (`POST …/redeliver`, 201). */
function deliveryResponses(list: boolean): Record<string, unknown> {
  return {
    [list ? '200' : '201']: {
      description: list
        ? docText({ en: 'One page of deliveries, newest first.', de: 'Eine Seite Zustellungen, neueste zuerst.' })
        : docText({ en: 'The delivery, due again.', de: 'Die Zustellung, wieder fällig.' }),
      content: { 'application/json': { schema: ref(list ? 'DeliveryList' : 'WebhookDelivery') } },
      ...(list ? { headers: { ...TOTAL_HEADERS, ...PAGES_HEADERS } } : {}),
    },
    ...Object.fromEntries(
      [400, 401, 403, 404, 429, 503].map((status) => [
        String(status),
        { description: ERROR_TEXTS[status], content: { 'application/json': { schema: ref('Error') } } },
      ]),
    ),
  };
}

/**
 * Adds what the DTOs cannot say: the response schemas of every resource operation (objects, list
 * envelopes with their total headers, the error body for each status the operation can answer) and
 * request examples that succeed when sent from Swagger UI.
 */
export function addResponseSchemas(doc: OpenAPIObject, namespace: string): void {
  doc.components = {
    ...doc.components,
    schemas: {
      ...(doc.components?.schemas ?? {}),
      ...SCHEMAS,
      ...WEBHOOK_SCHEMAS,
      ...IMPORT_SCHEMAS,
      ...Object.fromEntries(responseSchemaRegistry.components()),
      ChangeList: CHANGE_LIST,
      DeliveryList: listSchema('deliveries', 'WebhookDelivery'),
      ImportRunList: listSchema('runs', 'ImportRun'),
      ImportIgnoredList: listSchema('ignored', 'ImportIgnored'),
    },
  };
  const schemas = doc.components.schemas ?? {};
  for (const [key, { item, list }] of Object.entries(RESOURCES)) schemas[list] = listSchema(key, item);
  const registered = registeredResources(schemas, namespace);
  addRegisteredMembers(schemas);
  for (const [path, operations] of Object.entries(doc.paths)) {
    if (path.endsWith('.ics')) {
      for (const operation of Object.values(operations as Record<string, Schema>)) operation.responses = FEED_RESPONSES;
      continue;
    }
    const resource = path.slice(`/${namespace}/`.length).split('/')[0];
    if (path === `/${namespace}/changes`) {
      for (const operation of Object.values(operations as Record<string, Schema>))
        operation.responses = CHANGES_RESPONSES;
      continue;
    }
    const module = registered.find((r) => r.pattern.test(path));
    const names = module?.resource ?? RESOURCES[resource];
    if (!names) continue;
    // Webhooks and imports are administrators' (403 for everyone else, on reads too) and take no If-Match.
    const adminOnly = resource === 'webhooks' || resource === 'imports';
    for (const [method, operation] of Object.entries(operations as Record<string, Schema>)) {
      if (adminOnly && path.includes('/deliveries')) {
        operation.responses = deliveryResponses(method === 'get');
        continue;
      }
      if (resource === 'imports' && /\/runs?(\/|$)/.test(path)) {
        operation.responses = runResponses(path.endsWith('/runs'), path.endsWith('/run'));
        continue;
      }
      const importRoute =
        resource === 'imports' ? IMPORT_ROUTES.find((r) => r.path.test(path) && r.method === method) : undefined;
      if (importRoute) {
        operation.responses = importRouteResponses(importRoute);
        continue;
      }
      const kind = kindOf(path, method, resource, module && module.collection.test(path));
      if (!kind) continue;
      const ok =
        kind === 'delete' && isPostItem(names.item)
          ? deletedOrTrashed(names.item)
          : ref(kind === 'list' ? names.list : names.item);
      const responses: Record<string, unknown> = {
        [kind === 'create' ? '201' : '200']: {
          description: OK_TEXTS[kind],
          content: { 'application/json': { schema: ok } },
          ...(kind === 'list' ? { headers: { ...TOTAL_HEADERS, ...PAGES_HEADERS } } : {}),
        },
        ...((kind === 'list' || kind === 'read') && !adminOnly ? { '304': NOT_MODIFIED } : {}),
      };
      const errors = adminOnly
        ? [...new Set([...ERRORS_BY_KIND[kind], 401, 403])].filter((s) => s !== 412 && s !== 410).sort((a, b) => a - b)
        : ERRORS_BY_KIND[kind];
      for (const status of errors) {
        responses[String(status)] = {
          description: ERROR_TEXTS[status],
          content: { 'application/json': { schema: ref('Error') } },
        };
      }
      operation.responses = responses;
      const body = operation.requestBody as { content?: Record<string, Schema> } | undefined;
      const examples = module ? module.resource.examples : EXAMPLES[resource];
      const example = kind === 'create' ? examples?.create : examples?.update;
      if (body?.content && example) {
        for (const media of Object.values(body.content)) media.example = example;
      }
    }
  }
}

/** A route path pattern for a registered resource path: `{id}` matches any one path parameter. */
function pathPattern(namespace: string, path: string, rest: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const segments = path.split('/').map((seg) => (/^\{\w+\}$/.test(seg) ? '\\{[^/]+\\}' : escape(seg)));
  return new RegExp(`^/${escape(namespace)}/${segments.join('/')}${rest}`);
}

/** Modules' resources with their components and list envelopes, longest path first. */
function registeredResources(schemas: Record<string, unknown>, namespace: string) {
  return [...responseSchemaRegistry.resources()]
    .sort((a, b) => b.path.length - a.path.length)
    .map((resource: ResourceResponseSchemas) => {
      Object.assign(schemas, resource.schemas);
      schemas[resource.list] = listSchema(resource.listKey, resource.item);
      return {
        resource,
        pattern: pathPattern(namespace, resource.path, '(?:/|$)'),
        collection: pathPattern(namespace, resource.path, '$'),
      };
    });
}

/** Members modules added to the service's objects; one that clashes with a member there is refused. */
function addRegisteredMembers(schemas: Record<string, unknown>): void {
  for (const name of Object.keys(schemas)) {
    const component = schemas[name] as { properties?: Record<string, unknown> };
    const members = responseSchemaRegistry.membersOf(name);
    if (members.size === 0 || !component.properties) continue;
    // A copy: the service's own schemas are shared by every document built in this process.
    const properties = { ...component.properties };
    for (const [member, schema] of members) {
      if (member in properties) throw new Error(`the member "${member}" of ${name} is declared twice`);
      properties[member] = schema;
    }
    schemas[name] = { ...component, properties };
  }
}
