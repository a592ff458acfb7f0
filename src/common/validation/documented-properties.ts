/** Where `@nestjs/swagger` lists a class's documented properties (its `DECORATORS.API_MODEL_PROPERTIES_ARRAY`). */
const DOCUMENTED_PROPERTIES = 'swagger/apiModelPropertiesArray';
/** Where it keeps one property's schema (`DECORATORS.API_MODEL_PROPERTIES`). */
const PROPERTY_SCHEMA = 'swagger/apiModelProperties';

/** What a DTO's declaration documents of one property. */
export interface DocumentedSchema {
  description?: string;
  isArray?: boolean;
  enum?: readonly string[];
}

/** The documented schema of one property of a DTO (its field decorator's): whether it is a list, its values. */
export function documentedSchema(dto: { prototype: object }, name: string): DocumentedSchema {
  return (Reflect.getMetadata(PROPERTY_SCHEMA, dto.prototype, name) ?? {}) as DocumentedSchema;
}

/**
 * The properties a DTO documents, its parents' first, in declaration order: those its class declares and those
 * modules added at run time (a link's write field, a module's list parameter). The one list the OpenAPI
 * document, validation and everything derived from a DTO's members agree on.
 */
export function documentedProperties(dto: { prototype: object }): readonly string[] {
  const names = (Reflect.getMetadata(DOCUMENTED_PROPERTIES, dto.prototype) ?? []) as string[];
  // Every list request asks (its rest_url echo). `@nestjs/swagger` makes a new array for each property it
  // documents, so the array itself tells whether anything was added since the list was last made.
  let properties = known.get(names);
  if (!properties) {
    properties = [...new Set(names.map((name) => name.replace(/^:/, '')))];
    known.set(names, properties);
  }
  return properties;
}

const known = new WeakMap<readonly string[], readonly string[]>();
