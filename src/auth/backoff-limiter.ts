import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { memoryLimiter, type LimiterFactory } from '../common/redis/shared-limiters';

export interface BackoffLimiterOptions {
  /** Failures allowed within `windowSeconds` before the first lockout. */
  failures: number;
  windowSeconds: number;
  /** The first lockout; each further one doubles it, up to `maxLockoutSeconds`. */
  lockoutSeconds: number;
  maxLockoutSeconds: number;
  keyPrefix: string;
}

/**
 * Failed guesses per key (a login at an address, an event at an address) with exponential back-off:
 * `failures` misses lock the key for `lockoutSeconds`; after that each further miss locks it again at
 * once, for twice as long, until a success forgets the key. A guesser gets a handful of tries, then one
 * per lockout, and the lockouts grow, instead of a fixed wall that ten more guesses keep standing.
 */
export class BackoffLimiter {
  private readonly misses: RateLimiterAbstract;
  private readonly lockouts: RateLimiterAbstract;
  private readonly blocks: RateLimiterAbstract;

  /** @param limiter where the counters live: this process (default) or Redis, shared by every instance */
  constructor(
    private readonly options: BackoffLimiterOptions,
    limiter: LimiterFactory = memoryLimiter,
  ) {
    this.misses = limiter({
      points: options.failures,
      duration: options.windowSeconds,
      keyPrefix: `${options.keyPrefix}:miss`,
    });
    // Lockouts are remembered long enough for the back-off to reach its ceiling and stay there.
    this.lockouts = limiter({
      points: 1_000_000,
      duration: Math.max(options.maxLockoutSeconds * 4, options.windowSeconds),
      keyPrefix: `${options.keyPrefix}:lockouts`,
    });
    this.blocks = limiter({ points: 1, duration: 1, keyPrefix: `${options.keyPrefix}:block` });
  }

  /** Seconds until the key may try again; 0 when it may now. */
  async retryAfterSeconds(key: string): Promise<number> {
    const block = await this.blocks.get(key);
    return block && block.consumedPoints > 1 ? Math.max(1, Math.ceil(block.msBeforeNext / 1000)) : 0;
  }

  /**
   * Records a miss; returns the lockout it caused in seconds, or 0. `lockNow` locks on this miss
   * whatever the count (the login is under attack from elsewhere).
   */
  async recordMiss(key: string, lockNow = false): Promise<number> {
    const misses = await this.misses.penalty(key, 1);
    const earlierLockouts = (await this.lockouts.get(key))?.consumedPoints ?? 0;
    const due = lockNow || earlierLockouts > 0 || misses.consumedPoints >= this.options.failures;
    if (!due) return 0;
    await this.lockouts.penalty(key, 1);
    const seconds = Math.min(this.options.maxLockoutSeconds, this.options.lockoutSeconds * 2 ** earlierLockouts);
    await this.blocks.block(key, seconds);
    return seconds;
  }

  async forget(key: string): Promise<void> {
    await Promise.all([this.misses.delete(key), this.lockouts.delete(key), this.blocks.delete(key)]);
  }
}
