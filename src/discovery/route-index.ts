import type { OpenAPIObject } from '@nestjs/swagger';

/** One parameter of an endpoint, as the namespace index shows it (WordPress's `args`). */
export interface RouteArg {
  required: boolean;
  type: string;
  default?: unknown;
  enum?: unknown[];
  items?: { type: string; enum?: unknown[] };
  description?: string;
}

export interface RouteEndpoint {
  methods: string[];
  args: Record<string, RouteArg>;
}

export interface RouteEntry {
  namespace: string;
  methods: string[];
  endpoints: RouteEndpoint[];
}

type Schema = {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
};

type Parameter = { name: string; in: string; required?: boolean; schema?: Schema; description?: string };

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function resolve(doc: OpenAPIObject, schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    return resolve(doc, (doc.components?.schemas?.[name] ?? {}) as Schema);
  }
  if (schema.allOf && schema.allOf.length === 1) return resolve(doc, schema.allOf[0]);
  return schema;
}

function toArg(doc: OpenAPIObject, raw: Schema | undefined, required: boolean, description?: string): RouteArg {
  const schema = resolve(doc, raw);
  const arg: RouteArg = { required, type: schema.type ?? (schema.properties ? 'object' : 'string') };
  if (schema.default !== undefined) arg.default = schema.default;
  if (schema.enum) arg.enum = schema.enum;
  if (schema.type === 'array' && schema.items) {
    const items = resolve(doc, schema.items);
    arg.items = { type: items.type ?? 'object', ...(items.enum ? { enum: items.enum } : {}) };
  }
  const text = description ?? raw?.description ?? schema.description;
  if (text) arg.description = text;
  return arg;
}

/** `/cal/events/v1/events/{id}` → `/cal/events/v1/events/(?P<id>\d+)` (integers) or `(?P<slug>[^/]+)`. */
export function toRoutePattern(path: string, integerParams: ReadonlySet<string>): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    integerParams.has(name) ? `(?P<${name}>\\d+)` : `(?P<${name}>[^/]+)`,
  );
}

/**
 * The namespace index of behaviour.md §10, derived from the OpenAPI document (itself generated from the
 * controllers and DTOs), so it can never drift from the routes that exist.
 */
export function buildRouteIndex(doc: OpenAPIObject, namespace: string): Record<string, RouteEntry> {
  const root = `/${namespace}`;
  const routes: Record<string, RouteEntry> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    if (path !== root && !path.startsWith(`${root}/`)) continue;
    const endpoints: RouteEndpoint[] = [];
    const integerParams = new Set<string>();
    for (const method of HTTP_METHODS) {
      const operation = (item as Record<string, unknown>)[method] as
        { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } } | undefined;
      if (!operation) continue;
      const args: Record<string, RouteArg> = {};
      for (const p of operation.parameters ?? []) {
        if (p.in !== 'path' && p.in !== 'query') continue;
        const arg = toArg(doc, p.schema, p.in === 'path' || p.required === true, p.description);
        if (p.in === 'path' && arg.type === 'integer') integerParams.add(p.name);
        args[p.name] = arg;
      }
      const content = operation.requestBody?.content ?? {};
      const bodySchema = resolve(doc, Object.values(content)[0]?.schema);
      const requiredBody = new Set(bodySchema.required ?? []);
      for (const [name, prop] of Object.entries(bodySchema.properties ?? {})) {
        args[name] = toArg(doc, prop, requiredBody.has(name));
      }
      const upper = method.toUpperCase();
      const same = endpoints.find((e) => JSON.stringify(e.args) === JSON.stringify(args));
      if (same) same.methods.push(upper);
      else endpoints.push({ methods: [upper], args });
    }
    if (endpoints.length === 0) continue;
    routes[toRoutePattern(path, integerParams)] = {
      namespace,
      methods: endpoints.flatMap((e) => e.methods),
      endpoints,
    };
  }
  return routes;
}
