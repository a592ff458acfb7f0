import { Injectable, Logger } from '@nestjs/common';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { BackoffLimiter } from '../../auth/backoff-limiter';
import { verifySecret } from '../../auth/secret-hashing';
import { DomainError } from '../../common/errors/domain-error';
import { AppConfig } from '../../config/app-config';
import { SharedLimiters } from '../../common/redis/shared-limiters';

/**
 * Checks the password of a password-protected post, with guesses limited as logins are (LoginThrottle):
 * - per (post, client address), with back-off;
 * - per post, from all addresses: past `AUTH_LOGIN_FAILURE_LIMIT` misses within the window the post is
 *   under attack, and every address that misses on it is locked at its first miss, so a guesser who
 *   rotates addresses gets one guess per address, not `AUTH_FAILURE_LIMIT`. An address that has not
 *   missed (a visitor with the right password) still opens it.
 * The limit is checked before the hash, so a guesser cannot make the server run scrypt faster than the
 * limit allows.
 */
@Injectable()
export class PostPasswords {
  private readonly logger = new Logger(PostPasswords.name);
  private readonly guesses: BackoffLimiter;
  private readonly perPost: RateLimiterAbstract;
  private readonly postLimit: number;

  constructor(config: AppConfig, limiters: SharedLimiters) {
    const limits = config.authLimits;
    this.postLimit = limits.loginFailures;
    this.perPost = limiters.create({
      points: limits.loginFailures,
      duration: limits.windowSeconds,
      keyPrefix: 'post-password-all',
    });
    this.guesses = new BackoffLimiter(
      {
        failures: limits.failures,
        windowSeconds: limits.windowSeconds,
        lockoutSeconds: limits.lockoutSeconds,
        maxLockoutSeconds: limits.maxLockoutSeconds,
        keyPrefix: 'post-password',
      },
      limiters.create,
    );
  }

  /** True when `password` opens the post; 429 when this address has guessed too often. */
  async matches(post: { id: number; passwordHash: string }, password: string, address: string): Promise<boolean> {
    const key = `${post.id}\u0000${address}`;
    const wait = await this.guesses.retryAfterSeconds(key);
    if (wait > 0) throw new DomainError('too_many_requests', { headers: { 'Retry-After': String(wait) } });
    if (await verifySecret(password, post.passwordHash)) {
      await this.guesses.forget(key);
      return true;
    }
    const postMisses = (await this.perPost.penalty(String(post.id), 1)).consumedPoints;
    const underAttack = postMisses > this.postLimit;
    const lockedFor = await this.guesses.recordMiss(key, underAttack);
    if (lockedFor > 0) {
      this.logger.warn(
        `password guesses on post ${post.id} from ${address} locked for ${lockedFor}s` +
          (underAttack ? ' (post under attack from several addresses)' : ''),
      );
    }
    return false;
  }
}
