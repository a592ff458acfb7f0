/**
 * The public face of the service for extension packages (docs/extending.md): everything a team's module may
 * import, from one path (`<service>/dist/src/extend` compiled; `src/extend` from the sources). Nothing else
 * under `src/` is a public API, and a lint rule keeps `examples/` to this file. Each piece is declared with one
 * decorator and its definition: `@LinkedPostType`, `@EventTaxonomy`, `@StoredEventField` and
 * `@EventChildResource` on the extension's `@Module()`, `@EventMember` and `@EventFilter` on a provider, and
 * `@WithMigrations` for the tables it brings.
 */

import { claimServiceCopy } from './service-copy';

// An extension that resolved another copy of the service (installed from a registry, not linked to the one
// that runs) would declare its fields into registries nobody reads: refused at once, naming both copies.
claimServiceCopy(typeof __filename === 'string' ? __filename : undefined);

// The seams: decorators, the definitions they take and what a provider implements.
export {
  EventChildResource,
  EventFilter,
  EventMember,
  EventTaxonomy,
  LinkedPostType,
  StoredEventField,
  LinkedPostListQueryDto,
  linkedObjectHead,
  createLinkedPostTables,
  dropLinkedPostTables,
  icalText,
  icalTextOf,
  EventChildren,
  EventsQueryService,
  type EventChildEntity,
  type EventChildParent,
  type EventChildParentRule,
  type EventChildResourceDefinition,
  type EventFilterSource,
  type EventMemberDeclaration,
  type EventMemberSource,
  type EventTaxonomyDefinition,
  type LinkedPostTablesSpec,
  type LinkedPostTypeDefinition,
  type StoredEventFieldDefinition,
} from '../modules/events';

// Tables: migrations a module declares, with columns that mean the same on SQLite and MySQL.
export { WithMigrations, type MigrationClass } from '../database/module-migrations';
export {
  binaryStringColumn,
  booleanColumn,
  cascadeToPost,
  cascadeToTerm,
  dateTimeColumn,
  idColumn,
  intColumn,
  longTextColumn,
  stringColumn,
} from '../database/migrations/portable-columns';
export { DatabaseContext } from '../database/database-context';
export type { SqlCondition } from '../core/posts/post-visibility';

// Validation: the service's field rules, reasons in both languages, and partial updates.
export * from '../common/validation/fields';
export { defineReason, reason } from '../common/validation/validation-messages';
export { RequestValidationError } from '../common/validation/request-validation.error';
export { PartialUpdate } from '../common/validation/partial-update';
export { defineError } from '../common/errors/extension-errors';
export { PostFieldsDto } from '../core/posts/dto/post-fields.dto';

// Objects and their OpenAPI schemas; time.
export { objectSchema, type ResponseSchema } from '../common/http/response-schema-registry';
export { linkedObjectSchema } from '../discovery/response-schemas';
export { withoutEmpty } from '../core/posts/post.mapper';
export { SiteTime } from '../common/dates/site-time';
export { parseDateInput } from '../common/dates/date-input';
export type { Localized } from '../common/i18n/language';
export type { RequestContext } from '../common/http/request-context';
