/** An OpenAPI schema object. */
export type ResponseSchema = Record<string, unknown>;

/** A module's resource as the OpenAPI document describes its answers. */
export interface ResourceResponseSchemas {
  /**
   * Its routes under the namespace: `speakers`, or a child resource's `events/{id}/tickets` (any path
   * parameter name matches). The longest registered path that a route starts with describes it.
   */
  path: string;
  /** Component names of one item and of the list envelope, and the list's member (`tickets`). */
  item: string;
  list: string;
  listKey: string;
  /** Components it adds: at least `item`'s schema. */
  schemas: Record<string, ResponseSchema>;
  /** Bodies Swagger UI's "Try it out" sends as they are (they must pass validation). */
  examples?: { create?: ResponseSchema; update?: ResponseSchema };
}

const resources: ResourceResponseSchemas[] = [];
const components = new Map<string, ResponseSchema>();
const members = new Map<string, Map<string, ResponseSchema>>();

/**
 * Response schemas modules add to the OpenAPI document, at module definition time (the document is built
 * before the application initialises): their resources, and members they add to the service's own
 * objects (a field on `Event`). The contract test checks every answer against these, closed, so an
 * undocumented member fails it.
 */
export const responseSchemaRegistry = {
  addResource(resource: ResourceResponseSchemas): void {
    if (resources.some((r) => r.path === resource.path))
      throw new Error(`response schemas for "${resource.path}" are registered twice`);
    resources.push(resource);
  },

  /** A component a module describes itself (the events module's `Event`, from its catalogue of members). */
  addComponent(name: string, schema: ResponseSchema): void {
    if (components.has(name)) throw new Error(`the component "${name}" is registered twice`);
    components.set(name, schema);
  },

  components(): ReadonlyMap<string, ResponseSchema> {
    return components;
  },

  /** A member of a component (`Event`); the same name twice is refused. */
  addMember(component: string, name: string, schema: ResponseSchema): void {
    const known = members.get(component) ?? new Map<string, ResponseSchema>();
    if (known.has(name)) throw new Error(`the member "${name}" of ${component} is registered twice`);
    known.set(name, schema);
    members.set(component, known);
  },

  resources(): readonly ResourceResponseSchemas[] {
    return resources;
  },

  membersOf(component: string): ReadonlyMap<string, ResponseSchema> {
    return members.get(component) ?? new Map();
  },
};

/** A closed object schema: every member named and required (nullable ones say so in their own schema). */
export function objectSchema(properties: Record<string, ResponseSchema>): ResponseSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}
