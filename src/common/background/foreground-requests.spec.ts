import { describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { foregroundRequests } from './foreground-requests';

/** A request through the counting middleware, and what ends it. */
function request(): { req: Request; res: EventEmitter & Response } {
  const req = {} as Request;
  const res = new EventEmitter() as EventEmitter & Response;
  foregroundRequests.count(req, res, () => undefined);
  return { req, res };
}

describe('foregroundRequests', () => {
  it('counts a request until it finishes or closes, once, and not after it moved to the background', () => {
    const before = foregroundRequests.inFlight;
    const a = request();
    const b = request();
    const c = request();
    expect(foregroundRequests.inFlight).toBe(before + 3);
    a.res.emit('finish');
    a.res.emit('close');
    expect(foregroundRequests.inFlight).toBe(before + 2);
    foregroundRequests.toBackground(b.req);
    b.res.emit('close');
    expect(foregroundRequests.inFlight).toBe(before + 1);
    c.res.emit('close');
    expect(foregroundRequests.inFlight).toBe(before);
  });

  it('gives a background step its turn only after the requests in flight, or once it has waited enough', async () => {
    const before = foregroundRequests.inFlight;
    const { res } = request();
    const order: string[] = [];
    const step = foregroundRequests.turn().then(() => order.push('step'));
    // The request ends once the loop has turned (after the step's first look): the step goes after it.
    setImmediate(() => {
      order.push('request');
      res.emit('finish');
    });
    await step;
    expect(order).toEqual(['request', 'step']);
    // Under a request that never ends, the step still gets its turn (it waits a bounded time, not for ever).
    const stuck = request();
    await foregroundRequests.turn();
    stuck.res.emit('close');
    expect(foregroundRequests.inFlight).toBe(before);
  });
});
