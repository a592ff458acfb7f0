import { expect } from '@jest/globals';
import type { TestApp } from './create-test-app';

/**
 * Every page of `GET /events?<query>` at `perPage`, read as an anonymous client: the total the first page
 * reports and the ids all pages list, in order. A query that lists nothing (404 past the end, or 400 for
 * a window the service refuses) is `{ total: 0, ids: [] }`.
 */
export async function archivePages(
  t: TestApp,
  query: string,
  perPage: number,
): Promise<{ total: number; ids: number[] }> {
  const url = (page: number) => `/cal/events/v1/events?${query}&per_page=${perPage}&page=${page}`;
  const first = await t.http.get(url(1));
  if (first.status === 404 || first.status === 400) return { total: 0, ids: [] };
  expect(first.status).toBe(200);
  const idsOf = (res: { body: unknown }) => (res.body as { events: { id: number }[] }).events.map((e) => e.id);
  const ids = idsOf(first);
  for (let page = 2; page <= Number(first.headers['x-tec-totalpages']); page++) {
    ids.push(...idsOf(await t.http.get(url(page)).expect(200)));
  }
  return { total: Number(first.headers['x-tec-total']), ids };
}
