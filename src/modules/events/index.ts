/**
 * The events module's public surface: what every other module, the imports and a team's extension package
 * may use. Anything not exported here is the module's own and may change without notice; a lint rule keeps
 * other modules from reaching past this file (docs/architecture.md, docs/extending.md).
 */
export { EventsModule } from './events.module';

// REST: the DTOs and the services that read and write events as the routes do.
export { CreateEventDto } from './rest/dto/create-event.dto';
export { UpdateEventDto } from './rest/dto/update-event.dto';
export { ListEventsQueryDto } from './rest/dto/list-events-query.dto';
export { EventWritesService } from './rest/event-writes.service';
export { EventsQueryService } from './rest/events-query.service';

// Extension points: fields, list filters, linked post types, taxonomies and child resources.
export { EventFieldRegistry, type EventField } from './extension-points/links/event-field';
export { declareEventField, declareEventListParam, moduleIcalMembers } from './fields/event-field-declarations';
export { EventListFilterRegistry, type EventListFilter } from './extension-points/links/event-list-filter';
export type { EventLinkDefinition, EventLinkTarget } from './extension-points/links/event-link';
export { EventLinkRegistry } from './extension-points/links/event-links.module';
export type { LinkedPostTypeDefinition } from './extension-points/linked/linked-post-type.definition';
export { LinkedPostTypeModule } from './extension-points/linked/linked-post-type.module';
export { LinkedPostListQueryDto } from './extension-points/linked/linked-post-list-query.dto';
export { linkedObjectHead } from './extension-points/linked/linked-object-head';
export { LinkedPostExtensionRegistry, type LinkedPostExtension } from './extension-points/linked/linked-post-extension';
export {
  createLinkedPostTables,
  dropLinkedPostTables,
  type LinkedPostTablesSpec,
} from './extension-points/linked/linked-post-tables';
export { EventTaxonomyRegistry, type EventTaxonomyDefinition } from './extension-points/taxonomies/event-taxonomy';
export { EventTaxonomyModule } from './extension-points/taxonomies/event-taxonomy.module';
export type {
  EventChildEntity,
  EventChildParent,
  EventChildParentRule,
  EventChildResourceDefinition,
} from './extension-points/children/event-child-resource';
export { EventChildResourceModule } from './extension-points/children/event-child-resource.module';
export { EventChildren } from './extension-points/children/event-children';
export { StoredEventFieldModule } from './extension-points/stored-fields/stored-event-field.module';
export type { StoredEventFieldDefinition } from './extension-points/stored-fields/stored-event-field';
// Helpers for a link's or a module's iCalendar properties: text without the control characters RFC 5545 refuses.
export { icalText, text as icalTextOf } from './ical/ical-text';
// The one way an extension declares itself: a decorator with its definition (docs/extending.md).
export {
  EventChildResource,
  EventTaxonomy,
  LinkedPostType,
  StoredEventField,
} from './extension-points/decorators/module-decorators';
export {
  EventFilter,
  EventMember,
  type EventFilterSource,
  type EventMemberDeclaration,
  type EventMemberSource,
} from './extension-points/decorators/provider-decorators';
export { seamsMissing } from './extension-points/decorators/module-decorators';
export { EventChildRegistry, type RegisteredEventChild } from './extension-points/children/event-child-registry';
