import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { createTestApp, registeredModules, type TestApp } from '../support/create-test-app';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  requestBody?: { content: Record<string, { example?: Record<string, unknown> }> };
}
type Paths = Record<string, Record<string, Operation>>;

/**
 * The document with every object schema closed (`additionalProperties: false` where it says nothing): an
 * answer's member that no schema names, a module's field included, fails validation until it is documented.
 */
function closed<T>(node: T): T {
  if (Array.isArray(node)) return node.map(closed) as T;
  if (node === null || typeof node !== 'object') return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, closed(value)]));
  if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy as T;
}

/**
 * The OpenAPI document describes what the service really answers: every resource operation's success
 * and error responses, checked against live answers with a JSON Schema validator; and the request
 * examples Swagger UI shows succeed when sent as they are.
 */
describe('OpenAPI responses', () => {
  let t: TestApp;
  let editor: TestUser;
  let doc: { paths: Paths; components: { schemas: Record<string, unknown> } };
  let ajv: Ajv;
  const created: Record<string, { id: number; slug: string }> = {};

  /**
   * A route with every path parameter filled: each `{param}` from the record created at the path before it
   * (`/events/{id}/tickets/{ticket}`: the event made at `/events`, the ticket made at `/events/{id}/tickets`).
   */
  const filledPath = (path: string): string | undefined => {
    const segments = path.split('/');
    const filled: string[] = [];
    for (const [index, segment] of segments.entries()) {
      // (A parameter may share its segment: `{id}.ics`.)
      const param = /\{(\w+)\}/.exec(segment);
      if (!param) {
        filled.push(segment);
        continue;
      }
      const record = created[segments.slice(0, index).join('/')];
      if (!record) return undefined;
      filled.push(segment.replace(param[0], String(param[1] === 'slug' ? record.slug : record.id)));
    }
    return filled.join('/');
  };

  const validate = (schemaRef: unknown, body: unknown): string[] => {
    const check = ajv.compile({ $ref: `doc${(schemaRef as { $ref: string }).$ref}` });
    return check(body) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };

  beforeAll(async () => {
    t = await createTestApp({ modules: await registeredModules() });
    editor = await createUser(t, 'editor');
    doc = (await t.http.get(`${ns}/doc`).expect(200)).body;
    ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(closed(doc), 'doc');
  });
  afterAll(async () => {
    await t.close();
  });

  it('describes the objects, the list envelopes and the error body', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Event', 'Venue', 'Organizer', 'Term', 'Error', 'EventList', 'CategoryList']),
    );
    const list = doc.paths[`${ns}/events`].get.responses['200'] as { headers?: Record<string, unknown> };
    expect(Object.keys(list.headers ?? {})).toEqual([
      'X-TEC-Total',
      'X-WP-Total',
      'X-TEC-TotalPages',
      'X-WP-TotalPages',
    ]);
  });

  it('declares a required capability on every write route (a route without one would be open to anyone)', () => {
    const writes = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, operation]) => [
          path,
          method,
          (operation as unknown as Record<string, unknown>)['x-required-capability'],
        ]),
    );
    expect(writes.length).toBeGreaterThan(20);
    expect(writes.filter(([, , capability]) => capability === undefined)).toEqual([]);
  });

  it('gives every resource operation a success response and its error responses', () => {
    for (const resource of ['events', 'venues', 'organizers', 'categories', 'tags']) {
      for (const [path, operations] of Object.entries(doc.paths).filter(([p]) => p.startsWith(`${ns}/${resource}`))) {
        for (const [method, operation] of Object.entries(operations)) {
          const statuses = Object.keys(operation.responses);
          expect([path, method, statuses.some((s) => s.startsWith('2'))]).toEqual([path, method, true]);
          expect([path, method, statuses.includes('400') || method === 'delete']).toEqual([path, method, true]);
          if (method !== 'get') expect([path, method, statuses.includes('401')]).toEqual([path, method, true]);
        }
      }
    }
  });

  it('sends Swagger UI’s request examples successfully and answers as the schemas say', async () => {
    // Every collection that creates (the calendar's and every registered module's), parents before children,
    // so that a child's path parameters are filled from what its parent's create gave.
    const collections = Object.entries(doc.paths)
      // (Webhooks and imports are administrators' and need a reachable public address: their own tests below.)
      .filter(
        ([path, operations]) =>
          operations.post?.responses['201'] && !path.startsWith(`${ns}/webhooks`) && !path.startsWith(`${ns}/imports`),
      )
      .map(([path]) => path)
      .sort((a, b) => a.split('{').length - b.split('{').length || a.localeCompare(b));
    expect(collections).toEqual(
      expect.arrayContaining(['categories', 'tags', 'venues', 'organizers', 'events'].map((r) => `${ns}/${r}`)),
    );
    for (const path of collections) {
      const create = doc.paths[path].post;
      const example = create.requestBody?.content['application/json'].example;
      const url = filledPath(path);
      expect([path, example !== undefined, url !== undefined]).toEqual([path, true, true]);
      const res = await t.http.post(url!).set('Authorization', editor.auth).send(example).expect(201);
      expect([path, validate(create.responses['201'].content!['application/json'].schema, res.body)]).toEqual([
        path,
        [],
      ]);
      created[path] = { id: res.body.id, slug: res.body.slug };
    }
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (path in created || !path.includes('{')) continue;
      const url = filledPath(path);
      if (url === undefined) continue;
      for (const method of ['get', 'patch'] as const) {
        const operation = operations[method];
        if (!operation) continue;
        const example = operation.requestBody?.content['application/json'].example;
        const req = t.http[method](url).set('Authorization', editor.auth);
        const res = method === 'patch' ? await req.send(example ?? {}) : await req;
        expect([method, url, res.status]).toEqual([method, url, 200]);
        if (operation.responses['200'].content?.['text/calendar']) {
          expect([url, res.headers['content-type'], res.text.startsWith('BEGIN:VCALENDAR')]).toEqual([
            url,
            'text/calendar; charset=utf-8',
            true,
          ]);
          continue;
        }
        expect([
          method,
          url,
          validate(operation.responses['200'].content!['application/json'].schema, res.body),
        ]).toEqual([method, url, []]);
      }
    }
  });

  it('describes the change feed, its expired-token answer and conditional answers', async () => {
    const operation = doc.paths[`${ns}/changes`].get;
    const start = await t.http.get(`${ns}/changes`).expect(200);
    await t.http.post(`${ns}/tags`).set('Authorization', editor.auth).send({ name: 'described' }).expect(201);
    const page = await t.http.get(`${ns}/changes`).query({ since: start.body.next_token }).expect(200);
    expect(page.body.changes.length).toBeGreaterThan(0);
    expect(validate(operation.responses['200'].content!['application/json'].schema, page.body)).toEqual([]);
    const expired = await t.http.get(`${ns}/changes`).query({ since: Buffer.from('999999.0').toString('base64url') });
    expect(expired.status).toBe(410);
    expect(validate(operation.responses['410'].content!['application/json'].schema, expired.body)).toEqual([]);
    expect(Object.keys(doc.paths[`${ns}/events/{id}`].get.responses)).toContain('304');
    expect(Object.keys(doc.paths[`${ns}/events/{id}`].patch.responses)).toContain('412');
    expect(Object.keys(doc.paths[`${ns}/tags/{id}`].delete.responses)).toContain('412');
  });

  it('describes the import routes as they answer', async () => {
    const admin = await createUser(t, 'administrator');
    const imports = `${ns}/imports`;
    const check = async (path: string, method: 'get' | 'post', status: number, res: { body: unknown }) => {
      const operation = doc.paths[path][method];
      const schema = operation.responses[String(status)].content!['application/json'].schema;
      expect([path, method, validate(schema, res.body)]).toEqual([path, method, []]);
    };
    const example = doc.paths[imports].post.requestBody?.content['application/json'].example;
    const created = await t.http.post(imports).set('Authorization', admin.auth).send(example).expect(201);
    await check(imports, 'post', 201, created);
    await check(imports, 'get', 200, await t.http.get(imports).set('Authorization', admin.auth).expect(200));
    const one = `${imports}/{id}`;
    await check(one, 'get', 200, await t.http.get(`${imports}/${created.body.id}`).set('Authorization', admin.auth));
    const runs = await t.http.get(`${imports}/${created.body.id}/runs`).set('Authorization', admin.auth).expect(200);
    await check(`${one}/runs`, 'get', 200, runs);
    const ignored = await t.http.get(`${imports}/${created.body.id}/ignored`).set('Authorization', admin.auth);
    await check(`${one}/ignored`, 'get', 200, ignored);
    const cleared = await t.http.delete(`${imports}/${created.body.id}/ignored`).set('Authorization', admin.auth);
    await check(`${one}/ignored`, 'delete' as 'get', 200, cleared);
    expect(Object.keys(doc.paths[`${one}/preview`].post.responses)).toEqual(expect.arrayContaining(['200', '409']));
    await t.http.get(imports).set('Authorization', editor.auth).expect(403);
  });

  it('describes the webhook routes as they answer', async () => {
    const admin = await createUser(t, 'administrator');
    const hooks = `${ns}/webhooks`;
    const check = async (path: string, method: 'get' | 'post', status: number, res: { body: unknown }) => {
      const operation = doc.paths[path][method];
      const schema = operation.responses[String(status)].content!['application/json'].schema;
      expect([path, method, validate(schema, res.body)]).toEqual([path, method, []]);
    };
    const created = await t.http
      .post(hooks)
      .set('Authorization', admin.auth)
      .send({ url: 'https://93.184.216.34/hook', events: ['event.*'] })
      .expect(201);
    await check(hooks, 'post', 201, created);
    await check(hooks, 'get', 200, await t.http.get(hooks).set('Authorization', admin.auth).expect(200));
    const one = `${hooks}/{id}`;
    await check(one, 'get', 200, await t.http.get(`${hooks}/${created.body.id}`).set('Authorization', admin.auth));
    const deliveries = await t.http.get(`${hooks}/${created.body.id}/deliveries`).set('Authorization', admin.auth);
    await check(`${one}/deliveries`, 'get', 200, deliveries);
    const forbidden = await t.http.get(hooks).set('Authorization', editor.auth).expect(403);
    await check(hooks, 'get', 403, forbidden);
    expect(Object.keys(doc.paths[`${one}/deliveries/{delivery}/redeliver`].post.responses)).toContain('201');
  });

  it('leaves "Try it out" on every list as the list itself: nothing pre-filled narrows it', async () => {
    // Inside the default window (today onwards), so the list that must come back is not empty.
    const soon = `${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)} 10:00:00`;
    await t.http
      .post(`${ns}/events`)
      .set('Authorization', editor.auth)
      .send({ title: 'Listed', start_date: soon, end_date: `${soon.slice(0, 10)} 23:00:00`, status: 'publish' })
      .expect(201);
    type Parameter = {
      name: string;
      in: string;
      example?: unknown;
      default?: unknown;
      schema?: Record<string, unknown>;
    };
    const lists = Object.entries(doc.paths).filter(([path, operations]) => !path.includes('{') && operations.get);
    expect(lists.length).toBeGreaterThan(5);
    for (const [path, operations] of lists) {
      const parameters = ((operations.get as unknown as { parameters?: Parameter[] }).parameters ?? []).filter(
        (p) => p.in === 'query',
      );
      // What Swagger UI fills a parameter's box with: its example, else its default.
      const filled: Record<string, unknown> = {};
      for (const p of parameters) {
        const value = p.example ?? p.schema?.example ?? p.default ?? p.schema?.default;
        if (value !== undefined) filled[p.name] = value;
      }
      expect([path, parameters.filter((p) => p.example !== undefined || p.schema?.example !== undefined)]).toEqual([
        path,
        [],
      ]);
      const bare = await t.http.get(path).set('Host', 'calendar.test').set('Authorization', editor.auth);
      const tried = await t.http.get(path).query(filled).set('Host', 'calendar.test').set('Authorization', editor.auth);
      // Links echo the parameters sent; /health's uptime moves on between the two reads (by a second when the
      // machine is busy).
      const content = (body: unknown) =>
        Object.fromEntries(
          Object.entries(body as Record<string, unknown>).filter(
            ([k]) => !k.endsWith('rest_url') && k !== 'uptime_seconds',
          ),
        );
      expect([path, tried.status]).toEqual([path, bare.status]);
      if (bare.status === 200) expect([path, content(tried.body)]).toEqual([path, content(bare.body)]);
      if (path === `${ns}/events`) expect((bare.body as { total: number }).total).toBeGreaterThan(0);
    }
  });

  it('describes the lists and the errors as they come', async () => {
    for (const resource of ['events', 'venues', 'organizers', 'categories', 'tags']) {
      const operation = doc.paths[`${ns}/${resource}`].get;
      const res = await t.http.get(`${ns}/${resource}`).set('Authorization', editor.auth).expect(200);
      expect([resource, validate(operation.responses['200'].content!['application/json'].schema, res.body)]).toEqual([
        resource,
        [],
      ]);
      const bad = await t.http.get(`${ns}/${resource}`).query({ per_page: 'many' }).expect(400);
      expect(validate(operation.responses['400'].content!['application/json'].schema, bad.body)).toEqual([]);
    }
  });
});

describe('Swagger UI behind a prefix and in German', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { API_PREFIX: '/api' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('points "Try it out" at the prefixed paths', async () => {
    const init = await t.http.get(`/api${ns}/doc/ui/swagger-ui-init.js`).expect(200);
    expect(init.text).toMatch(/"servers":\s*\[\s*\{\s*"url":\s*"http:\/\/127\.0\.0\.1:\d+\/api"/);
  });

  it('shows the German document under /de', async () => {
    const de = await t.http.get(`/api/de${ns}/doc/ui/swagger-ui-init.js`).expect(200);
    expect(de.text).toContain('Veranstaltungsorte auflisten.');
    const en = await t.http.get(`/api${ns}/doc/ui/swagger-ui-init.js`).expect(200);
    expect(en.text).toContain('List venues.');
  });
});
