import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/** How long a background step waits for requests in flight before it takes its turn anyway. */
const MAX_WAIT_MS = 50;
/** How often it looks again meanwhile. */
const LOOK_MS = 2;

/**
 * The requests this process is answering now, so that long work cut into steps (a feed's chunks, an
 * import's records) lets them go first: on one event loop, a reader whose answer needs ten database round
 * trips would otherwise wait behind a background step at each of them. A request that becomes such work
 * itself (a feed once it streams) leaves the count (`toBackground`).
 */
class ForegroundRequests {
  private active = 0;
  /** Requests counted and not yet ended nor moved to the background. */
  private readonly counted = new WeakSet<object>();

  readonly count: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    this.active++;
    this.counted.add(req);
    const end = () => this.leave(req);
    res.once('finish', end);
    res.once('close', end);
    next();
  };

  /** The request goes on as background work: others no longer wait for it. */
  toBackground(req: object): void {
    this.leave(req);
  }

  get inFlight(): number {
    return this.active;
  }

  /**
   * A background step's turn: after the event loop has had one, and once no request is in flight or
   * `maxWaitMs` has passed (background work goes on under any load, only more slowly).
   */
  async turn(maxWaitMs = MAX_WAIT_MS): Promise<void> {
    await nextTurn();
    const until = performance.now() + maxWaitMs;
    while (this.active > 0 && performance.now() < until) await sleep(LOOK_MS);
  }

  /**
   * Turns for one piece of background work cut into steps: each waits for requests in flight at most as long
   * as the step before it took (within {@link LOOK_MS}..{@link MAX_WAIT_MS}), so under steady traffic the
   * work still gets about half the loop, and quick steps are not slowed by long waits.
   */
  steps(): () => Promise<void> {
    let started = performance.now();
    return async () => {
      const took = performance.now() - started;
      await this.turn(Math.min(MAX_WAIT_MS, Math.max(LOOK_MS, took)));
      started = performance.now();
    };
  }

  private leave(req: object): void {
    if (!this.counted.delete(req)) return;
    this.active--;
  }
}

/** One per process: the event loop it describes is the process's. */
export const foregroundRequests = new ForegroundRequests();
