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
