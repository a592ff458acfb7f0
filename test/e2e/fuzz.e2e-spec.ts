import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createTestApp, registeredModules, type TestApp } from '../support/create-test-app';
import { expectErrorShape } from '../support/error-shape';
import { recurrenceLines } from '../support/recurrence-grammar';
import { fillRoute, indexedEndpoints, type IndexedEndpoint } from '../support/route-catalogue';
import { basicAuth, createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';

/** Requests per run: 2,000 by default (CI, both databases); FUZZ_RUNS=50000 for a long run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
/** Generated `recurrence` values posted on their own: 300 by default, FUZZ_RECURRENCE_RUNS for more. */
const RECURRENCE_RUNS = Number(process.env.FUZZ_RECURRENCE_RUNS ?? 300);
/** A fixed seed keeps CI reproducible; FUZZ_SEED=<n> explores elsewhere (a failure prints its seed). */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

/** Values as careless and hostile clients send them, for any parameter. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53, 1e20, -1e20, 99999999999999),
  fc.double({ noNaN: false }),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom('', ' ', '0', 'true', 'false', '1,2,3', 'a,b', '%00', '../../etc', "' OR 1=1 --", '<script>'),
  fc.constantFrom('2031-01-01', '2031-01-01 10:00:00', '0999-01-01', '99999-01-01', 'Europe/Berlin', 'UTC+99'),
  fc.constantFrom('x'.repeat(300), 'y'.repeat(70_000)),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null)), { maxLength: 6 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxKeys: 4 }),
  fc.letrec((tie) => ({
    nested: fc.oneof({ depthSize: 'small' }, fc.constant('leaf'), fc.array(tie('nested'), { maxLength: 2 })),
  })).nested,
);

/**
 * A value of the parameter's documented type (ids near the seeded records), or now and then a hostile one;
 * `recurrence` from the RFC 5545 grammar, so that generated requests reach its dates and rule parts.
 */
const plausibleValue = (name: string, arg: IndexedEndpoint['args'][string]): fc.Arbitrary<unknown> => {
  const typed: fc.Arbitrary<unknown> =
    name === 'recurrence'
      ? recurrenceLines
      : arg.enum
        ? fc.constantFrom(...arg.enum)
        : arg.type === 'integer'
          ? fc.integer({ min: 1, max: 12 })
          : arg.type === 'boolean'
            ? fc.boolean()
            : arg.type === 'array'
              ? fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 3 })
              : fc.oneof(
                  fc.constantFrom(
                    '2031-01-01 10:00:00',
                    '2031-02-01',
                    'Fuzz',
                    'fuzz-event',
                    'https://example.org/x.png',
                  ),
                  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
                );
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: hostileValue });
};

/** Usually absent, now and then one of `values`: each hostile header on its own, not all at once. */
const rarely = <T>(values: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: values });

const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});

interface FuzzRequest {
  endpoint: IndexedEndpoint;
  id: number;
  slug: string;
  params: Record<string, unknown>;
  transport: 'json' | 'form' | 'query' | 'raw';
  raw: string;
  who: 'anonymous' | 'editor' | 'subscriber' | 'garbage' | 'wrong';
  contentType: string | null;
  host: string | null;
  forwardedFor: string | null;
  language: '' | '/de' | '/xx';
}

describe('fuzz: generated requests across every route', () => {
  let t: TestApp;
  let editor: TestUser;
  let subscriber: TestUser;
  let endpoints: IndexedEndpoint[];
  const ids: number[] = [];
  const slugs: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ modules: await registeredModules() });
    editor = await createUser(t, 'editor');
    subscriber = await createUser(t, 'subscriber');
    endpoints = (await indexedEndpoints(t)).filter((e) => !e.route.endsWith('/doc'));
    const seed = [
      ['events', { title: 'Fuzz event', start_date: '2031-01-01', end_date: '2031-01-02', password: 'pw fuzz' }],
      ['venues', { venue: 'Fuzz venue' }],
      ['organizers', { organizer: 'Fuzz organizer' }],
      ['categories', { name: 'Fuzz category' }],
      ['tags', { name: 'fuzz tag' }],
    ] as const;
    for (const [resource, body] of seed) {
      const res = await t.http.post(`${ns}/${resource}`).set('Authorization', editor.auth).send(body).expect(201);
      ids.push(res.body.id);
      if (res.body.slug) slugs.push(res.body.slug);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const request = (): fc.Arbitrary<FuzzRequest> =>
    fc.constantFrom(...endpoints).chain((endpoint) =>
      fc.record({
        endpoint: fc.constant(endpoint),
        id: fc.oneof(fc.constantFrom(...ids), fc.constantFrom(0, 1, 99999999, 2 ** 31), fc.nat()),
        slug: fc.oneof(fc.constantFrom(...slugs), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 })),
        params: fc.oneof(
          // Mostly well-formed values for the route's own parameters, so requests get past validation...
          fc.record(
            Object.fromEntries(Object.entries(endpoint.args).map(([name, arg]) => [name, plausibleValue(name, arg)])),
            { requiredKeys: [] },
          ),
          // ...and anything at all, under its names and others.
          fc.dictionary(
            fc.oneof(fc.constantFrom(...Object.keys(endpoint.args), 'unknown_param', '__proto__', 'constructor')),
            hostileValue,
            { maxKeys: 6 },
          ),
        ),
        transport: fc.constantFrom('json', 'json', 'form', 'query', 'raw'),
        raw: fc.oneof(fc.constantFrom('{', '[1,2]', 'null', '"text"', '{"a":', ''), fc.string({ maxLength: 40 })),
        who: fc.constantFrom('anonymous', 'editor', 'editor', 'editor', 'subscriber', 'garbage', 'wrong'),
        contentType: rarely(
          fc.constantFrom(
            'application/json',
            'text/plain',
            'application/xml',
            'multipart/form-data',
            'application/json; charset=latin1',
          ),
        ),
        host: rarely(fc.oneof(fc.constantFrom('127.0.0.1', 'bad host', '[::1]:80', 'a..b'), headerText)),
        forwardedFor: rarely(headerText),
        language: fc.constantFrom('', '', '', '/de', '/xx'),
      }),
    );

  const authorization = (who: FuzzRequest['who']): string | null => {
    switch (who) {
      case 'editor':
        return editor.auth;
      case 'subscriber':
        return subscriber.auth;
      case 'garbage':
        return 'Basic !!!not-base64';
      case 'wrong':
        return basicAuth(`nobody${Math.floor(Math.random() * 1e6)}`, 'wrong password');
      default:
        return null;
    }
  };

  it(
    `answers ${RUNS} generated requests without a 5xx, every error in the documented shape`,
    async () => {
      const seen = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(request(), async (r) => {
          const path = fillRoute(r.endpoint.route, { id: r.id, slug: encodeURIComponent(r.slug) });
          const url = `${r.language}${path}`;
          const method = r.endpoint.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
          let req = t.http[method](url);
          const auth = authorization(r.who);
          if (auth) req = req.set('Authorization', auth);
          if (r.host !== null) req = req.set('Host', r.host);
          if (r.forwardedFor !== null) req = req.set('X-Forwarded-For', r.forwardedFor);
          let res;
          if (r.transport === 'query' || method === 'get') {
            res = await req.query(JSON.parse(JSON.stringify(r.params, (_k, v: unknown) => (v === null ? '' : v))));
          } else if (r.transport === 'raw') {
            res = await req.set('Content-Type', r.contentType ?? 'application/json').send(r.raw);
          } else if (r.transport === 'form') {
            res = await req.type('form').send(JSON.parse(JSON.stringify(r.params)) as Record<string, string>);
          } else {
            if (r.contentType !== null) req = req.set('Content-Type', r.contentType);
            res = await req.send(JSON.stringify(r.params));
          }
          seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
          expect([r.endpoint.method, url, res.status < 500, res.status < 500 ? '' : res.text]).toEqual([
            r.endpoint.method,
            url,
            true,
            '',
          ]);
          if (res.status >= 400) expectErrorShape(res, `${r.endpoint.method} ${url}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      process.stdout.write(
        `fuzz: ${RUNS} requests, seed ${SEED}, statuses ${JSON.stringify(Object.fromEntries(seen))}\n`,
      );
      // The run reached deep enough to matter: successes and refusals both happened.
      expect([...seen.keys()].some((s) => s < 300)).toBe(true);
      expect([...seen.keys()].some((s) => s === 400)).toBe(true);
      // Generous on purpose: a busy machine may be ten times slower; the figure that matters is "no 5xx".
    },
    Math.max(600_000, RUNS * 300),
  );

  it(
    `answers ${RECURRENCE_RUNS} recurrence values from the RFC 5545 grammar with 201 or a 400 naming recurrence`,
    async () => {
      const seen = new Map<number, number>();
      const event = { title: 'Fuzz series', start_date: '2031-01-07 10:00', end_date: '2031-01-07 11:00' };
      await fc.assert(
        fc.asyncProperty(
          recurrenceLines,
          fc.constantFrom('Europe/Berlin', 'UTC', 'America/New_York'),
          async (lines, timezone) => {
            const res = await t.http
              .post(`${ns}/events`)
              .set('Authorization', editor.auth)
              .send({ ...event, timezone, recurrence: lines });
            seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
            const label = JSON.stringify(lines);
            expect([label, res.status === 201 || res.status === 400]).toEqual([label, true]);
            if (res.status === 400) {
              expectErrorShape(res, label);
              expect([label, Object.keys(res.body.data?.params ?? {})]).toEqual([label, ['recurrence']]);
            } else {
              // A series it made can be read back and removed whole.
              await t.http.get(`${ns}/events/${res.body.id}`).expect(200);
              await t.http
                .delete(`${ns}/events/${res.body.id}?force=true&scope=all`)
                .set('Authorization', editor.auth)
                .expect(200);
            }
          },
        ),
        { numRuns: RECURRENCE_RUNS, seed: SEED, endOnFailure: true },
      );
      process.stdout.write(
        `fuzz: ${RECURRENCE_RUNS} recurrence values, statuses ${JSON.stringify(Object.fromEntries(seen))}\n`,
      );
      // Both sides of the grammar were reached: series made and lines refused.
      expect(seen.get(201) ?? 0).toBeGreaterThan(RECURRENCE_RUNS / 20);
      expect(seen.get(400) ?? 0).toBeGreaterThan(RECURRENCE_RUNS / 20);
    },
    Math.max(600_000, RECURRENCE_RUNS * 600),
  );
});
