import { Injectable } from '@nestjs/common';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { AppConfig } from '../config/app-config';

/**
 * Brute-force protection: after `AUTH_FAILURE_LIMIT` failed logins from one address, or for one login,
 * within `AUTH_FAILURE_WINDOW_SECONDS`, further attempts are refused with 429 until the window passes.
 * Counters live in this process; behind several instances each keeps its own.
 */
@Injectable()
export class LoginThrottle {
  private readonly byAddress: RateLimiterMemory;
  private readonly byLogin: RateLimiterMemory;

  constructor(config: AppConfig) {
    const options = {
      points: config.authFailureLimit,
      duration: config.authFailureWindowSeconds,
      blockDuration: config.authFailureWindowSeconds,
    };
    this.byAddress = new RateLimiterMemory({ ...options, keyPrefix: 'ip' });
    this.byLogin = new RateLimiterMemory({ ...options, keyPrefix: 'login' });
  }

  /** Seconds to wait before another attempt, 0 when one is allowed now. */
  async retryAfterSeconds(address: string, login: string | null): Promise<number> {
    const checks = [this.byAddress.get(address), login ? this.byLogin.get(login) : Promise.resolve(null)];
    let wait = 0;
    for (const state of await Promise.all(checks)) {
      if (state && state.remainingPoints <= 0) wait = Math.max(wait, Math.ceil(state.msBeforeNext / 1000));
    }
    return wait;
  }

  async recordFailure(address: string, login: string | null): Promise<void> {
    await Promise.all([
      this.byAddress.penalty(address, 1),
      login ? this.byLogin.penalty(login, 1) : Promise.resolve(null),
    ]);
  }

  async recordSuccess(login: string): Promise<void> {
    await this.byLogin.delete(login);
  }
}
