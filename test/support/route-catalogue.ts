import type { TestApp } from './create-test-app';

/** One endpoint of the namespace index: a concrete path pattern, a method and its args. */
export interface IndexedEndpoint {
  route: string;
  method: string;
  args: Record<string, { required: boolean; type?: string; enum?: string[] }>;
}

/**
 * Every endpoint the service itself lists at `GET /cal/events/v1`, so tests that sweep all routes
 * follow the API as it grows instead of a hand-kept list.
 */
export async function indexedEndpoints(t: TestApp): Promise<IndexedEndpoint[]> {
  const index = (await t.http.get('/cal/events/v1')).body as {
    routes: Record<string, { endpoints: { methods: string[]; args: IndexedEndpoint['args'] }[] }>;
  };
  const out: IndexedEndpoint[] = [];
  for (const [route, { endpoints }] of Object.entries(index.routes)) {
    for (const endpoint of endpoints) {
      for (const method of endpoint.methods) out.push({ route, method, args: endpoint.args });
    }
  }
  return out;
}

/** A concrete URL for a route pattern: `(?P<id>\d+)` and `(?P<slug>[^/]+)` filled in. */
export function fillRoute(route: string, values: { id: number | string; slug: string }): string {
  return route.replace(/\(\?P<id>[^)]*\)+/, String(values.id)).replace(/\(\?P<slug>[^)]*\)+/, values.slug);
}

/** Which resource a route belongs to: `events`, `venues`, … (empty for the namespace root). */
export function resourceOf(route: string): string {
  return route.split('/')[4] ?? '';
}

const PATH_GROUP = /\(\?P<(\w+)>[^)]*\)/;

/** A route pattern's collection: the pattern up to its last path parameter (itself when it ends in none). */
export function collectionOf(route: string): string {
  const groups = [...route.matchAll(new RegExp(PATH_GROUP.source, 'g'))];
  const last = groups.at(-1);
  if (!last || last.index + last[0].length !== route.length) return route;
  return withoutBySlug(route.slice(0, last.index).replace(/\/$/, ''));
}

/** `…/venues/by-slug` names the records of `…/venues`. */
const withoutBySlug = (pattern: string): string => pattern.replace(/\/by-slug$/, '');

/**
 * A concrete URL for a route pattern with every path parameter filled from the record made at the collection
 * before it (`…/events/(?P<id>…)/tickets/(?P<child>…)`: the event made at `…/events`, the ticket made at
 * `…/events/(?P<id>…)/tickets`); undefined when one of those records is missing.
 */
export function fillRouteFrom(
  route: string,
  records: Record<string, { id: number | string; slug: string }>,
): string | undefined {
  let url = '';
  let pattern = '';
  let rest = route;
  for (let match = PATH_GROUP.exec(rest); match; match = PATH_GROUP.exec(rest)) {
    const before = rest.slice(0, match.index);
    pattern += before;
    const record = records[withoutBySlug(pattern.replace(/\/$/, ''))];
    if (!record) return undefined;
    url += before + String(match[1] === 'slug' ? record.slug : record.id);
    pattern += match[0];
    rest = rest.slice(match.index + match[0].length);
  }
  return url + rest;
}

/** The OpenAPI path of a route pattern: `(?P<id>\d+)` becomes `{id}`. */
export function openApiPathOf(route: string): string {
  return route.replace(new RegExp(PATH_GROUP.source, 'g'), (_whole, name: string) => `{${name}}`);
}
