import { describe, expect, it } from '@jest/globals';
import type { OpenAPIObject } from '@nestjs/swagger';
import { buildRouteIndex, toRoutePattern } from './route-index';

const doc = {
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths: {
    '/other/v1/x': { get: { parameters: [], responses: {} } },
    '/cal/events/v1/things/{id}': {
      get: {
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'integer' }, description: 'Thing id.' },
          { name: 'password', in: 'query', required: false, schema: { type: 'string' } },
        ],
        responses: {},
      },
      post: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' }, description: 'Thing id.' }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/UpdateThing' } } } },
        responses: {},
      },
      put: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' }, description: 'Thing id.' }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/UpdateThing' } } } },
        responses: {},
      },
    },
    '/cal/events/v1/things/by-slug/{slug}': {
      get: { parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }], responses: {} },
    },
  },
  components: {
    schemas: {
      UpdateThing: {
        type: 'object',
        required: ['title'],
        properties: {
          title: { type: 'string', description: 'Title.' },
          tags: { type: 'array', items: { type: 'integer' } },
          mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
        },
      },
    },
  },
} as unknown as OpenAPIObject;

describe('toRoutePattern', () => {
  it('writes integer params as \\d+ and others as [^/]+', () => {
    expect(toRoutePattern('/a/{id}/b/{slug}', new Set(['id']))).toBe('/a/(?P<id>\\d+)/b/(?P<slug>[^/]+)');
  });
});

describe('buildRouteIndex', () => {
  const routes = buildRouteIndex(doc, 'cal/events/v1');

  it('keeps only the namespace and converts path patterns', () => {
    expect(Object.keys(routes)).toEqual([
      '/cal/events/v1/things/(?P<id>\\d+)',
      '/cal/events/v1/things/by-slug/(?P<slug>[^/]+)',
    ]);
  });

  it('groups methods with the same args into one endpoint', () => {
    const route = routes['/cal/events/v1/things/(?P<id>\\d+)'];
    expect(route.methods).toEqual(['GET', 'POST', 'PUT']);
    expect(route.endpoints.map((e) => e.methods)).toEqual([['GET'], ['POST', 'PUT']]);
  });

  it('describes path, query and body args with type, default, enum and items', () => {
    const [read, update] = routes['/cal/events/v1/things/(?P<id>\\d+)'].endpoints;
    expect(read.args).toEqual({
      id: { required: true, type: 'integer', description: 'Thing id.' },
      password: { required: false, type: 'string' },
    });
    expect(update.args.title).toEqual({ required: true, type: 'string', description: 'Title.' });
    expect(update.args.tags).toEqual({ required: false, type: 'array', items: { type: 'integer' } });
    expect(update.args.mode).toEqual({ required: false, type: 'string', default: 'a', enum: ['a', 'b'] });
  });
});
