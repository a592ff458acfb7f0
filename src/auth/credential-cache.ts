import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { SharedRedis } from '../common/redis/shared-redis';
import { AppConfig } from '../config/app-config';
import type { AuthUser } from './auth-user';

interface CachedCredential {
  user: AuthUser;
  passwordId: string;
  /** The credential epoch the verification started at (null without Redis). */
  epoch: string | null;
  storedAt: number;
}

/** The epoch as read for one verification: `value` null without Redis; `unavailable` while Redis is down. */
export interface CredentialEpoch {
  value: string | null;
  unavailable: boolean;
}

/** While Redis is down, cached credentials count for this long only (degraded mode). */
const DEGRADED_LIFETIME_MS = 1000;

/**
 * Recently verified credentials, so an authenticated request does not pay for scrypt every time.
 * Keyed by a SHA-256 of login and password (the password itself is never kept); entries live
 * `AUTH_CACHE_SECONDS`. Revoking a password or changing a role evicts them at once on this instance, and,
 * with `REDIS_URL`, on every instance at once: it increments a credential epoch in Redis, which each
 * verification reads first (one Redis round trip, no scrypt) and which every entry must match. An entry
 * stored by a verification that started before the increment carries the old epoch and is never used.
 * While Redis is down, entries count for a second only.
 */
@Injectable()
export class CredentialCache {
  private readonly logger = new Logger(CredentialCache.name);
  private readonly cache: LRUCache<string, CachedCredential> | null;

  constructor(
    config: AppConfig,
    private readonly redis: SharedRedis,
  ) {
    const ttlSeconds = config.authCacheSeconds;
    this.cache = ttlSeconds > 0 ? new LRUCache({ max: 10_000, ttl: ttlSeconds * 1000 }) : null;
  }

  private key(login: string, password: string): string {
    return createHash('sha256').update(login).update('\0').update(password).digest('hex');
  }

  /** Read before a verification (and before its database reads). */
  async epoch(): Promise<CredentialEpoch> {
    if (!this.cache || !this.redis.client) return { value: null, unavailable: false };
    try {
      // With the token of Redis' keys: after a flush the epoch starts again at 0, and an entry of an old
      // epoch with the same number must not count.
      const { values, token } = await this.redis.readKeys([this.redis.key('credential-epoch')]);
      return { value: `${token}:${values[0] ?? '0'}`, unavailable: false };
    } catch {
      return { value: null, unavailable: true };
    }
  }

  get(login: string, password: string, epoch: CredentialEpoch): CachedCredential | undefined {
    const entry = this.cache?.get(this.key(login, password));
    if (!entry) return undefined;
    if (epoch.unavailable) return Date.now() - entry.storedAt < DEGRADED_LIFETIME_MS ? entry : undefined;
    return entry.epoch === epoch.value ? entry : undefined;
  }

  set(
    login: string,
    password: string,
    value: Pick<CachedCredential, 'user' | 'passwordId'>,
    epoch: CredentialEpoch,
  ): void {
    this.cache?.set(this.key(login, password), {
      ...value,
      epoch: epoch.value,
      storedAt: Date.now(),
    });
  }

  async forgetPassword(passwordId: string): Promise<void> {
    this.evict((entry) => entry.passwordId === passwordId);
    await this.advanceEpoch();
  }

  async forgetUser(userId: number): Promise<void> {
    this.evict((entry) => entry.user.id === userId);
    await this.advanceEpoch();
  }

  /** Every instance's cached credentials stop counting (the next verification reads the new epoch). */
  private async advanceEpoch(): Promise<void> {
    if (!this.redis.client) return;
    try {
      await this.redis.client.incr(this.redis.key('credential-epoch'));
    } catch {
      // Degraded: other instances use their entries for a second at most while Redis is down.
      this.logger.warn('Redis unavailable: other instances drop cached credentials within a second');
    }
  }

  private evict(matches: (entry: CachedCredential) => boolean): void {
    if (!this.cache) return;
    for (const [key, entry] of this.cache.entries()) if (matches(entry)) this.cache.delete(key);
  }
}
