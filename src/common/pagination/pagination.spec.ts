import { describe, expect, it } from '@jest/globals';
import { PreparedJson, PreparedRecordJson } from '../http/prepared-json';
import { buildListResponse, isBeyondLastPage, resolvePageRequest, toQueryString, totalPages } from './pagination';

describe('resolvePageRequest', () => {
  it('defaults to page 1 of 10', () => {
    expect(resolvePageRequest(undefined, undefined, 50)).toEqual({ page: 1, perPage: 10, offset: 0 });
  });

  it('clamps per_page to the maximum', () => {
    expect(resolvePageRequest(3, 500, 50)).toEqual({ page: 3, perPage: 50, offset: 100 });
  });
});

describe('totalPages and isBeyondLastPage', () => {
  it('counts pages', () => {
    expect(totalPages(0, 10)).toBe(0);
    expect(totalPages(10, 10)).toBe(1);
    expect(totalPages(11, 10)).toBe(2);
  });

  it('never calls page 1 out of range, even when empty', () => {
    expect(isBeyondLastPage({ page: 1, perPage: 10, offset: 0 }, 0)).toBe(false);
    expect(isBeyondLastPage({ page: 2, perPage: 10, offset: 10 }, 10)).toBe(true);
    expect(isBeyondLastPage({ page: 2, perPage: 10, offset: 10 }, 11)).toBe(false);
  });
});

describe('toQueryString', () => {
  it('writes lists as CSV and leaves out empty values', () => {
    expect(toQueryString({ a: [1, 2], b: undefined, c: null, d: [], e: 'x y', f: true })).toBe('a=1%2C2&e=x+y&f=true');
  });
});

describe('buildListResponse', () => {
  const base = {
    key: 'events',
    collectionUrl: 'http://h/cal/events/v1/events',
    query: { search: 'jazz', categories: [3, 4] },
  };

  it('builds the envelope, links and total headers for a middle page', () => {
    const res = buildListResponse({ ...base, items: [1, 2], total: 25, page: { page: 2, perPage: 10, offset: 10 } });
    expect(res.body).toEqual({
      events: [1, 2],
      rest_url: 'http://h/cal/events/v1/events?search=jazz&categories=3%2C4&page=2&per_page=10',
      next_rest_url: 'http://h/cal/events/v1/events?search=jazz&categories=3%2C4&page=3&per_page=10',
      previous_rest_url: 'http://h/cal/events/v1/events?search=jazz&categories=3%2C4&page=1&per_page=10',
      total: 25,
      total_pages: 3,
    });
    expect(res.headers).toMatchObject({
      'X-TEC-Total': '25',
      'X-TEC-TotalPages': '3',
      'X-WP-Total': '25',
      'X-WP-TotalPages': '3',
    });
    expect(res.headers.Link).toContain('rel="next"');
    expect(res.headers.Link).toContain('rel="prev"');
  });

  it('leaves out the links that do not exist', () => {
    const first = buildListResponse({ ...base, items: [], total: 5, page: { page: 1, perPage: 10, offset: 0 } });
    expect(first.body).not.toHaveProperty('next_rest_url');
    expect(first.body).not.toHaveProperty('previous_rest_url');
    expect(first.headers).not.toHaveProperty('Link');
  });
  it('splices items that come as text into the body, byte for byte what serialising the objects gives', () => {
    const objects = [
      { id: 1, title: 'A "quoted" title' },
      { id: 2, title: 'Ünïcode \u2028' },
    ];
    const page = { page: 2, perPage: 2, offset: 2 };
    const plain = buildListResponse({ ...base, items: objects, total: 5, page });
    const mixed = buildListResponse({
      ...base,
      items: [new PreparedRecordJson(JSON.stringify(objects[0]), 1, '2030-01-01 00:00:00'), objects[1]],
      total: 5,
      page,
    });
    expect(mixed.body).toBeInstanceOf(PreparedJson);
    expect((mixed.body as PreparedJson).json).toBe(JSON.stringify(plain.body));
    expect(mixed.headers).toEqual(plain.headers);
  });
});
