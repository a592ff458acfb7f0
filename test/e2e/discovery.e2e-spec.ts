import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hasTranslation } from '../../src/common/i18n/doc-text';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { createUser } from '../support/users';

/** The exec form of the Dockerfile's `HEALTHCHECK … CMD [...]`, as the container runtime runs it. */
function healthcheckCommand(): string[] {
  const dockerfile = readFileSync(join(process.cwd(), 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const line = dockerfile.split('\n').find((l) => l.startsWith('HEALTHCHECK'));
  const json = line?.slice(line.indexOf('CMD') + 3).trim();
  if (!json) throw new Error('the Dockerfile has no HEALTHCHECK … CMD');
  return JSON.parse(json) as string[];
}

describe('namespace index, doc and language segment', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /cal/events/v1', () => {
    it('lists the namespace routes with their args', async () => {
      const res = await t.http.get('/cal/events/v1').expect(200);
      expect(res.body.namespace).toBe('cal/events/v1');
      expect(Object.keys(res.body.routes)).toEqual(expect.arrayContaining(['/cal/events/v1', '/cal/events/v1/doc']));
      const root = res.body.routes['/cal/events/v1'];
      expect(root.methods).toEqual(['GET']);
      expect(root.endpoints[0].args.context).toMatchObject({
        required: false,
        type: 'string',
        default: 'view',
        enum: ['view', 'edit'],
      });
      expect(res.body._links.up[0].href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      // The link leads somewhere: the first-run page.
      await t.http.get(new URL(res.body._links.up[0].href as string).pathname).expect(200);
    });

    it('lists every route of the contract with its methods', async () => {
      const res = await t.http.get('/cal/events/v1').expect(200);
      const methods = (path: string) => [...(res.body.routes[path]?.methods ?? [])].sort();
      const item = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'];
      expect(methods('/cal/events/v1')).toEqual(['GET']);
      expect(methods('/cal/events/v1/doc')).toEqual(['GET']);
      for (const resource of ['events', 'venues', 'organizers']) {
        expect(methods(`/cal/events/v1/${resource}`)).toEqual(['GET', 'POST']);
        expect(methods(`/cal/events/v1/${resource}/(?P<id>\\d+)`)).toEqual(item);
        expect(methods(`/cal/events/v1/${resource}/by-slug/(?P<slug>[^/]+)`)).toEqual(item);
      }
      for (const resource of ['categories', 'tags']) {
        expect(methods(`/cal/events/v1/${resource}`)).toEqual(['GET', 'POST']);
        expect(methods(`/cal/events/v1/${resource}/(?P<id>\\d+)`)).toEqual(item);
      }
    });

    it('documents every list parameter of the contract for events, with its defaults', async () => {
      const res = await t.http.get('/cal/events/v1').expect(200);
      const list = res.body.routes['/cal/events/v1/events'].endpoints.find((e: { methods: string[] }) =>
        e.methods.includes('GET'),
      );
      // The contract's parameters; modules may add their own (a team's link filter), so not an exact list.
      expect(Object.keys(list.args)).toEqual(
        expect.arrayContaining([
          'page',
          'per_page',
          'start_date',
          'end_date',
          'starts_before',
          'starts_after',
          'ends_before',
          'ends_after',
          'strict_dates',
          'search',
          'categories',
          'tags',
          'venue',
          'organizer',
          'featured',
          'status',
          'geoloc',
          'geoloc_lat',
          'geoloc_lng',
          'include',
          'post_parent',
          'ticketed',
        ]),
      );
      expect(list.args.page).toMatchObject({ type: 'integer', default: 1, required: false });
      expect(list.args.per_page).toMatchObject({ type: 'integer', default: 10 });
      expect(list.args.strict_dates).toMatchObject({ type: 'boolean', default: false });
      const create = res.body.routes['/cal/events/v1/events'].endpoints.find((e: { methods: string[] }) =>
        e.methods.includes('POST'),
      );
      const required = Object.entries(create.args as Record<string, { required: boolean }>)
        .filter(([, arg]) => arg.required)
        .map(([name]) => name)
        .sort();
      expect(required).toEqual(['end_date', 'start_date', 'title']);
    });

    it('answers another namespace with rest_invalid_namespace', async () => {
      const res = await t.http.get('/cal/events/v1?namespace=wp/v2').expect(404);
      expect(res.body.code).toBe('rest_invalid_namespace');
    });

    it('accepts its own namespace and refuses an unknown context', async () => {
      await t.http.get('/cal/events/v1?namespace=cal/events/v1&context=edit').expect(200);
      const res = await t.http.get('/cal/events/v1?context=admin').expect(400);
      expect(res.body.data.params.context).toMatch(/view, edit/);
    });

    it('answers an unknown version of the namespace with rest_no_route', async () => {
      const res = await t.http.get('/cal/events/v2').expect(404);
      expect(res.body.code).toBe('rest_no_route');
    });
  });

  describe('GET /cal/events/v1/doc', () => {
    it('is an OpenAPI 3 document of the API', async () => {
      const res = await t.http.get('/cal/events/v1/doc').expect(200);
      expect(res.body.openapi).toMatch(/^3\./);
      expect(res.body.info.title).toBe('Events Calendar REST API');
      // The release, as /health says it (package.json), not the namespace's v1.
      expect(res.body.info.version).toBe((await t.http.get('/health').expect(200)).body.version);
      expect(res.body.info.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(res.body.servers[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/cal/events/v1', '/cal/events/v1/doc']));
      expect(res.body.components).toBeDefined();
    });

    it('documents every parameter with a description', async () => {
      const res = await t.http.get('/cal/events/v1/doc').expect(200);
      const params = res.body.paths['/cal/events/v1'].get.parameters as { name: string; description?: string }[];
      expect(params.map((p) => p.name).sort()).toEqual(['context', 'namespace']);
      for (const p of params) expect(p.description).toBeTruthy();
    });

    it('serves a browsable UI beside the document', async () => {
      const res = await t.http.get('/cal/events/v1/doc/ui').redirects(1).expect(200);
      expect(res.text).toContain('swagger-ui');
    });
  });

  describe('language segment', () => {
    it('translates the doc into German under /de', async () => {
      const en = await t.http.get('/cal/events/v1/doc').expect(200);
      const de = await t.http.get('/de/cal/events/v1/doc').expect(200);
      const enParam = en.body.paths['/cal/events/v1'].get.parameters.find(
        (p: { name: string }) => p.name === 'namespace',
      );
      const deParam = de.body.paths['/cal/events/v1'].get.parameters.find(
        (p: { name: string }) => p.name === 'namespace',
      );
      expect(enParam.description).toBe('The namespace to describe.');
      expect(deParam.description).toBe('Der zu beschreibende Namensraum.');
      expect(de.body.servers[0].url).toMatch(/\/de$/);
    });

    it('keeps names, types and defaults the same in every language', async () => {
      const en = await t.http.get('/cal/events/v1').expect(200);
      const de = await t.http.get('/de/cal/events/v1').expect(200);
      const strip = (routes: Record<string, { endpoints: { args: Record<string, Record<string, unknown>> }[] }>) =>
        JSON.stringify(routes, (key, value: unknown) => (key === 'description' ? undefined : value));
      expect(strip(de.body.routes)).toBe(strip(en.body.routes));
      expect(de.body.routes['/cal/events/v1'].endpoints[0].args.context.description).toMatch(/Kontext/);
    });

    it('translates error messages', async () => {
      const res = await t.http.get('/de/cal/events/v1?context=nope').expect(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(res.body.message).toMatch(/Ungültige/);
      expect(res.body.data.params.context).toMatch(/muss einer dieser Werte sein/);
      const notFound = await t.http.get('/de/cal/events/v1/nope').expect(404);
      expect(notFound.body.message).toMatch(/keine Route/);
    });

    it('picks the language from Accept-Language when the URL names none; the URL’s segment wins', async () => {
      const asked = (path: string, header?: string) => {
        const req = t.http.get(path);
        return (header ? req.set('Accept-Language', header) : req).expect(400);
      };
      const german = await asked('/cal/events/v1/events?per_page=nope', 'de-AT, en;q=0.5');
      expect(german.body.message).toMatch(/Ungültige/);
      expect(german.headers.vary).toMatch(/Accept-Language/);
      expect((await asked('/cal/events/v1/events?per_page=nope', 'fr, en;q=0.1')).body.message).toMatch(/Invalid/);
      expect((await asked('/cal/events/v1/events?per_page=nope', 'fr')).body.message).toMatch(/Invalid/);
      expect((await asked('/cal/events/v1/events?per_page=nope')).body.message).toMatch(/Invalid/);
      expect((await asked('/de/cal/events/v1/events?per_page=nope', 'en')).body.message).toMatch(/Ungültige/);
      // Cached reads are kept per language.
      const en = await t.http.get('/cal/events/v1').expect(200);
      const de = await t.http.get('/cal/events/v1').set('Accept-Language', 'de').expect(200);
      expect(de.body.routes['/cal/events/v1'].endpoints[0].args.context.description).toMatch(/Kontext/);
      expect(en.body.routes['/cal/events/v1'].endpoints[0].args.context.description).not.toMatch(/Kontext/);
    });

    it('has a German text for every description and summary in the document', async () => {
      const res = await t.http.get('/cal/events/v1/doc').expect(200);
      const texts: string[] = [];
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(walk);
        else if (node && typeof node === 'object') {
          for (const [key, value] of Object.entries(node)) {
            if ((key === 'description' || key === 'summary') && typeof value === 'string') {
              if (value !== '') texts.push(value);
            } else walk(value);
          }
        }
      };
      walk(res.body.paths);
      walk(res.body.components.schemas ?? {});
      expect(texts.length).toBeGreaterThan(0);
      expect(texts.filter((text) => !hasTranslation(text))).toEqual([]);
    });

    it('falls back to English for an unknown language', async () => {
      const res = await t.http.get('/xx/cal/events/v1/doc').expect(200);
      const param = res.body.paths['/cal/events/v1'].get.parameters.find(
        (p: { name: string }) => p.name === 'namespace',
      );
      expect(param.description).toBe('The namespace to describe.');
    });

    it('accepts a region subtag', async () => {
      const res = await t.http.get('/de-AT/cal/events/v1?context=nope').expect(400);
      expect(res.body.message).toMatch(/Ungültige/);
    });
  });
});

describe('API prefix', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { API_PREFIX: '/api', METRICS_OPEN: 'true' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the namespace below the prefix, with and without a language', async () => {
    await t.http.get('/api/cal/events/v1').expect(200);
    const doc = await t.http.get('/api/de/cal/events/v1/doc').expect(200);
    expect(doc.body.servers[0].url).toMatch(/\/api\/de$/);
    await t.http.get('/cal/events/v1').expect(404);
  });

  it("serves the first-run page at the prefix's root, where the route index's up link points", async () => {
    const index = await t.http.get('/api/de/cal/events/v1').expect(200);
    expect(index.body._links.up[0].href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
    const page = await t.http.get('/api/').expect(200);
    expect(page.body.links.routes).toMatch(/\/api\/cal\/events\/v1$/);
  });

  it('keeps health and metrics at the root', async () => {
    await t.http.get('/health').expect(200);
    await t.http.get('/health/ready').expect(200);
    await t.http.get('/health/ready/writes').expect(200);
    await t.http.get('/api/health/ready').expect(404);
    const metrics = await t.http.get('/metrics').expect(200);
    expect(metrics.text).toContain('http_requests_total');
  });

  it("passes the image's own HEALTHCHECK command", async () => {
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const address = server.address() as AddressInfo;
      const [program, ...args] = healthcheckCommand();
      expect(program).toBe('node');
      const exitCode = await new Promise<number | null>((resolve) =>
        execFile(process.execPath, args, { env: { ...process.env, PORT: String(address.port) } }, (error) =>
          resolve(error ? ((error as { code?: number }).code ?? -1) : 0),
        ),
      );
      expect(exitCode).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('first-run page at /', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const pathOf = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };

  it('answers JSON to API clients: version, database, administrator, links that work', async () => {
    const res = await t.http.get('/').set('Accept', 'application/json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.vary).toMatch(/Accept/);
    expect(res.body).toMatchObject({
      name: 'Events Calendar REST service',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      database: { type: t.database.kind },
      administrator: false,
    });
    expect(res.body.next).toMatch(/CAL_ADMIN_LOGIN/);
    for (const link of Object.values(res.body.links as Record<string, string>)) {
      const answer = await t.http.get(pathOf(link));
      expect([link, answer.status]).toEqual([link, 200]);
    }
    await createUser(t, 'administrator');
    const after = await t.http.get('/').expect(200);
    expect(after.body.administrator).toBe(true);
  });

  it('prints two commands that create an event and list it on this instance', async () => {
    const admin = await createUser(t, 'administrator');
    const { body } = await t.http.get('/').expect(200);
    const create = body.try.create as string;
    const list = body.try.list as string;
    const base = body.links.routes as string;
    expect(create).toContain(`${base}/events`);
    expect(list).toContain(`${base}/events`);
    // The create line as a user fills it in: their login and application password for the placeholder.
    const payload = JSON.parse(/-d '([^']*)'/.exec(create)![1]) as Record<string, unknown>;
    expect(create).toContain("-u 'LOGIN:APPLICATION PASSWORD'");
    const created = await t.http
      .post(pathOf(`${base}/events`))
      .set('Authorization', admin.auth)
      .send(payload)
      .expect(201);
    const listed = await t.http.get(pathOf(/'([^']*)'$/.exec(list)![1])).expect(200);
    expect(listed.body.events.map((e: { id: number }) => e.id)).toContain(created.body.id);
  });

  it('answers HTML to a browser, escaped, with the same links', async () => {
    const res = await t.http.get('/').set('Accept', 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<h1>Events Calendar REST service');
    expect(res.text).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+\/cal\/events\/v1\/doc\/ui\/">/);
    expect(res.text).toContain('&quot;title&quot;:&quot;Jazz night&quot;');
    expect(res.text).not.toContain('<script');
  });
});
