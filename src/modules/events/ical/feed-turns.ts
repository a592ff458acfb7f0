import { Semaphore } from 'async-mutex';

/**
 * Turns at writing event feeds: at most `concurrent` at once in this process; up to as many again wait
 * for a turn, and a feed asked for beyond that is refused at once (the caller answers 503). A turn is
 * held from before the feed's first query until its stream ends or its client goes away.
 */
export class FeedTurns {
  private readonly semaphore: Semaphore;

  constructor(private readonly concurrent: number) {
    this.semaphore = new Semaphore(concurrent);
  }

  /** A release function (safe to call more than once), or null when too many feeds already wait. */
  async take(): Promise<(() => void) | null> {
    if (this.semaphore.isLocked() && this.waiting >= this.concurrent) return null;
    this.waiting++;
    try {
      const [, release] = await this.semaphore.acquire();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    } finally {
      this.waiting--;
    }
  }

  /** Feeds waiting for a turn now. */
  get queued(): number {
    return this.waiting;
  }

  private waiting = 0;
}
