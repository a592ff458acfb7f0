import { Injectable, Logger } from '@nestjs/common';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { SharedLimiters } from '../common/redis/shared-limiters';
import { AppConfig } from '../config/app-config';
import { BackoffLimiter } from './backoff-limiter';

/** What the throttle has seen since start, for operators (logs, metrics). */
export interface LoginThrottleCounts {
  failures: number;
  lockouts: number;
}

/**
 * Brute-force protection for HTTP Basic logins (behaviour.md §3), keyed so an attacker cannot lock
 * anyone else out:
 * - per (login, client address): `AUTH_FAILURE_LIMIT` misses within the window lock that pair, with
 *   exponential back-off; other addresses, and other logins from the same address (a shared proxy),
 *   are not affected;
 * - per login: past `AUTH_LOGIN_FAILURE_LIMIT` misses from all addresses within the window, the login is
 *   under attack, and every address that misses on it is locked at its first miss. An address that has
 *   not missed (the owner's) still logs in.
 * With `REDIS_URL` the counters live in Redis, shared by every instance; without it (or while Redis is
 * down) in this process.
 */
@Injectable()
export class LoginThrottle {
  private readonly logger = new Logger(LoginThrottle.name);
  private readonly pairs: BackoffLimiter;
  private readonly logins: RateLimiterAbstract;
  private readonly loginLimit: number;
  readonly counts: LoginThrottleCounts = { failures: 0, lockouts: 0 };

  constructor(config: AppConfig, limiters: SharedLimiters) {
    const limits = config.authLimits;
    this.loginLimit = limits.loginFailures;
    this.pairs = new BackoffLimiter(
      {
        failures: limits.failures,
        windowSeconds: limits.windowSeconds,
        lockoutSeconds: limits.lockoutSeconds,
        maxLockoutSeconds: limits.maxLockoutSeconds,
        keyPrefix: 'login-address',
      },
      limiters.create,
    );
    this.logins = limiters.create({
      points: limits.loginFailures,
      duration: limits.windowSeconds,
      keyPrefix: 'login',
    });
  }

  /** Seconds to wait before another attempt, 0 when one is allowed now. */
  retryAfterSeconds(address: string, login: string | null): Promise<number> {
    return this.pairs.retryAfterSeconds(pairKey(address, login));
  }

  async recordFailure(address: string, login: string | null): Promise<void> {
    this.counts.failures++;
    const loginMisses = login ? (await this.logins.penalty(login, 1)).consumedPoints : 0;
    const underAttack = loginMisses > this.loginLimit;
    const lockedFor = await this.pairs.recordMiss(pairKey(address, login), underAttack);
    if (lockedFor > 0) {
      this.counts.lockouts++;
      this.logger.warn(
        `login locked for ${lockedFor}s after repeated failures: login=${JSON.stringify(login ?? '')} address=${address}` +
          (underAttack ? ' (login under attack from several addresses)' : ''),
      );
    } else {
      this.logger.debug(`login failed: login=${JSON.stringify(login ?? '')} address=${address}`);
    }
  }

  async recordSuccess(address: string, login: string): Promise<void> {
    await this.pairs.forget(pairKey(address, login));
  }
}

const pairKey = (address: string, login: string | null): string => `${login ?? ''}\u0000${address}`;
