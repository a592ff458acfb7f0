import { Injectable, Logger } from '@nestjs/common';
import { BackoffLimiter } from '../../auth/backoff-limiter';
import { verifySecret } from '../../auth/secret-hashing';
import { DomainError } from '../../common/errors/domain-error';
import { AppConfig } from '../../config/app-config';
import { SharedLimiters } from '../../common/redis/shared-limiters';

/**
 * Checks the password of a password-protected post, with guesses limited per (post, client address)
 * by the same back-off as logins. The limit is checked before the hash, so a guesser cannot make the
 * server run scrypt faster than the limit allows.
 */
@Injectable()
export class PostPasswords {
  private readonly logger = new Logger(PostPasswords.name);
  private readonly guesses: BackoffLimiter;

  constructor(config: AppConfig, limiters: SharedLimiters) {
    const limits = config.authLimits;
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
    const lockedFor = await this.guesses.recordMiss(key);
    if (lockedFor > 0) this.logger.warn(`password guesses on post ${post.id} from ${address} locked for ${lockedFor}s`);
    return false;
  }
}
