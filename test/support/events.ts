import { expect } from '@jest/globals';
import type { TestApp } from './create-test-app';

export type EventBody = Record<string, unknown> & {
  id: number;
  title: string;
  slug: string;
  status: string;
  start_date: string;
  utc_start_date: string;
};

let counter = 0;

/** Creates an event through the API (201 expected) and returns its object. */
export async function postEvent(t: TestApp, auth: string, fields: Record<string, unknown> = {}): Promise<EventBody> {
  const n = ++counter;
  const res = await t.http
    .post('/cal/events/v1/events')
    .set('Authorization', auth)
    .send({ title: `Event ${n}`, start_date: '2030-05-01 19:00:00', end_date: '2030-05-01 22:00:00', ...fields });
  if (res.status !== 201) throw new Error(`event create answered ${res.status}: ${JSON.stringify(res.body)}`);
  expect(res.status).toBe(201);
  return res.body as EventBody;
}
