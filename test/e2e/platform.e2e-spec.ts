import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CALENDAR_MODULES } from '../../src/app.module';
import { TagsModule } from '../../src/modules/tags/tags.module';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { createTestDatabase } from '../support/test-database';
import { EchoController } from '../support/echo.controller';

const BODY_LIMIT = 2048;

describe('platform: errors, request parsing, health', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ controllers: [EchoController], env: { BODY_LIMIT_BYTES: String(BODY_LIMIT) } });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('errors', () => {
    it('answers an unknown path with rest_no_route and a request id', async () => {
      const res = await t.http.get('/cal/events/v1/nothing-here').expect(404);
      expect(res.body.code).toBe('rest_no_route');
      expect(res.body.data.status).toBe(404);
      expect(res.body.data.request_id).toBe(res.headers['x-request-id']);
      expect(typeof res.body.message).toBe('string');
    });

    it('reads a route whose only parameters are path ids, and answers a non-numeric one 404', async () => {
      const res = await t.http.get('/cal/events/v1/test-echo/things/12/parts/34').expect(200);
      expect(res.body).toEqual({ id: 12, part: 34 });
      const bad = await t.http.get('/cal/events/v1/test-echo/things/12/parts/x').expect(404);
      expect(bad.body.code).toBe('rest_no_route');
    });

    it('answers a known path with a method it lacks with rest_no_route', async () => {
      const res = await t.http.put('/cal/events/v1/doc').send({}).expect(404);
      expect(res.body.code).toBe('rest_no_route');
    });

    it('keeps a sane x-request-id from the caller and replaces a hostile one', async () => {
      const kept = await t.http.get('/nope').set('x-request-id', 'abc-123').expect(404);
      expect(kept.headers['x-request-id']).toBe('abc-123');
      expect(kept.body.data.request_id).toBe('abc-123');
      const replaced = await t.http.get('/nope').set('x-request-id', 'bad id <script>').expect(404);
      expect(replaced.headers['x-request-id']).not.toBe('bad id <script>');
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('answers malformed JSON with rest_invalid_json', async () => {
      const res = await t.http
        .post('/cal/events/v1/test-echo')
        .set('Content-Type', 'application/json')
        .send('{"ids": [1,')
        .expect(400);
      expect(res.body.code).toBe('rest_invalid_json');
      expect(JSON.stringify(res.body)).not.toContain('at ');
    });

    it('refuses a JSON body that is not an object', async () => {
      const res = await t.http.post('/cal/events/v1/test-echo').set('Content-Type', 'application/json').send('[1,2]');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_json');
    });

    it('answers an oversized body with 413', async () => {
      const res = await t.http
        .post('/cal/events/v1/test-echo')
        .send({ name: 'x'.repeat(5000) })
        .expect(413);
      expect(res.body.code).toBe('rest_payload_too_large');
      expect(res.body.data.status).toBe(413);
      // The limit is stated: a client cannot guess BODY_LIMIT_BYTES.
      expect(res.body.data.limit_bytes).toBe(BODY_LIMIT);
      expect(res.body.message).toBe(
        `The request body is larger than the service accepts: at most ${BODY_LIMIT} bytes.`,
      );
    });

    it('answers an unsupported body type with 415', async () => {
      const res = await t.http
        .post('/cal/events/v1/test-echo')
        .set('Content-Type', 'text/xml')
        .send('<a/>')
        .expect(415);
      expect(res.body.code).toBe('rest_unsupported_media_type');
    });

    it('lists every invalid parameter in data.params', async () => {
      const res = await t.http.get('/cal/events/v1/test-echo?flag=maybe&n=abc&name=toolong').expect(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params).sort()).toEqual(['flag', 'n', 'name']);
      expect(res.body.data.params.flag).toMatch(/boolean/);
      expect(res.body.data.params.n).toMatch(/integer/);
    });

    it('names missing required parameters with rest_missing_callback_param', async () => {
      const res = await t.http.post('/cal/events/v1/test-echo/required').send({ n: 'x' }).expect(400);
      expect(res.body.code).toBe('rest_missing_callback_param');
      expect(res.body.data.params.sort()).toEqual(['start', 'title']);
    });

    it('rejects a blank required string as invalid, not missing', async () => {
      const res = await t.http.post('/cal/events/v1/test-echo/required').send({ title: '  ', start: 'x' }).expect(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual(['title']);
    });
  });

  describe('request parsing', () => {
    it('reads lists as a[]=, a[0]= and CSV from the query', async () => {
      expect((await t.http.get('/cal/events/v1/test-echo?ids[]=1&ids[]=2').expect(200)).body.ids).toEqual([1, 2]);
      expect((await t.http.get('/cal/events/v1/test-echo?ids[0]=3&ids[1]=4').expect(200)).body.ids).toEqual([3, 4]);
      expect((await t.http.get('/cal/events/v1/test-echo?ids=5,6').expect(200)).body.ids).toEqual([5, 6]);
    });

    it('rejects list items that are not ids', async () => {
      const res = await t.http.get('/cal/events/v1/test-echo?ids=1,abc').expect(400);
      expect(Object.keys(res.body.data.params)).toEqual(['ids']);
    });

    it.each([
      ['true', true],
      ['1', true],
      ['false', false],
      ['0', false],
    ])('reads the boolean %s from the query', async (raw, expected) => {
      const res = await t.http.get(`/cal/events/v1/test-echo?flag=${raw}`).expect(200);
      expect(res.body.flag).toBe(expected);
    });

    it('reads JSON booleans and numeric strings in a JSON body', async () => {
      const res = await t.http
        .post('/cal/events/v1/test-echo')
        .send({ flag: 0, n: '7', ids: [1, '2'] })
        .expect(201);
      expect(res.body).toEqual({ flag: false, n: 7, ids: [1, 2] });
    });

    it('reads a form body with a[]= lists', async () => {
      const res = await t.http
        .post('/cal/events/v1/test-echo')
        .type('form')
        .send('ids[]=8&ids[]=9&flag=true&name=abc')
        .expect(201);
      expect(res.body).toEqual({ ids: [8, 9], flag: true, name: 'abc' });
    });

    it('lets the body win over the query string', async () => {
      const json = await t.http.post('/cal/events/v1/test-echo?n=1&name=query').send({ n: 2 }).expect(201);
      expect(json.body).toEqual({ n: 2, name: 'query' });
      const form = await t.http.post('/cal/events/v1/test-echo?n=1').type('form').send('n=3').expect(201);
      expect(form.body).toEqual({ n: 3 });
    });

    it('reads body parameters of a DELETE too', async () => {
      const res = await t.http.delete('/cal/events/v1/test-echo?n=1').send({ flag: true }).expect(200);
      expect(res.body).toEqual({ n: 1, flag: true });
    });

    it('drops unknown parameters instead of failing', async () => {
      const res = await t.http.get('/cal/events/v1/test-echo?n=2&unknown=1').expect(200);
      expect(res.body).toEqual({ n: 2 });
    });
  });

  describe('health', () => {
    it('reports the database when ready', async () => {
      const res = await t.http.get('/health/ready').expect(200);
      expect(res.body.status).toBe('ok');
      expect(res.body.database.status).toBe('up');
      expect(['better-sqlite3', 'mysql']).toContain(res.body.database.type);
    });
  });
});

describe('platform: modules that do not fit together', () => {
  it('refuses to start without a taxonomy module the events declare, naming it', async () => {
    const database = await createTestDatabase();
    try {
      const withoutTags = CALENDAR_MODULES.filter((m) => m !== TagsModule);
      await expect(createTestApp({ database, modules: withoutTags })).rejects.toThrow(
        /"cal_event" → "post_tag".*TagsModule/,
      );
    } finally {
      await database.drop();
    }
  });
});
