/** Where `@nestjs/swagger` lists a class's documented properties (its `DECORATORS.API_MODEL_PROPERTIES_ARRAY`). */
const DOCUMENTED_PROPERTIES = 'swagger/apiModelPropertiesArray';

/**
 * The properties a DTO documents, its parents' first, in declaration order: those its class declares and those
 * modules added at run time (a link's write field, a module's list parameter). The one list the OpenAPI
 * document, validation and everything derived from a DTO's members agree on.
 */
export function documentedProperties(dto: { prototype: object }): string[] {
  const names = (Reflect.getMetadata(DOCUMENTED_PROPERTIES, dto.prototype) ?? []) as string[];
  return [...new Set(names.map((name) => name.replace(/^:/, '')))];
}
