import { expect } from '@jest/globals';

/** Asserts behaviour.md §2's error body, with the HTTP status equal to `data.status`. */
export function expectErrorShape(res: { status: number; body: unknown }, label = ''): void {
  const body = res.body as { code?: unknown; message?: unknown; data?: { status?: unknown; request_id?: unknown } };
  expect([label, typeof body.code, typeof body.message]).toEqual([label, 'string', 'string']);
  expect([label, body.data?.status]).toEqual([label, res.status]);
  expect([label, typeof body.data?.request_id]).toEqual([label, 'string']);
  expect([label, JSON.stringify(body)]).not.toEqual([label, expect.stringMatching(/\n\s+at |Error:/)]);
}
