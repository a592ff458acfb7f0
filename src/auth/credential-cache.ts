import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../config/app-config';
import type { AuthUser } from './auth-user';

interface CachedCredential {
  user: AuthUser;
  passwordId: string;
}

/**
 * Recently verified credentials, so an authenticated request does not pay for scrypt every time.
 * Keyed by a SHA-256 of login and password (the password itself is never kept); entries live
 * `AUTH_CACHE_SECONDS`, and revoking a password or changing a role evicts them at once on this instance.
 */
@Injectable()
export class CredentialCache {
  private readonly cache: LRUCache<string, CachedCredential> | null;

  constructor(config: AppConfig) {
    const ttlSeconds = config.authCacheSeconds;
    this.cache = ttlSeconds > 0 ? new LRUCache({ max: 10_000, ttl: ttlSeconds * 1000 }) : null;
  }

  private key(login: string, password: string): string {
    return createHash('sha256').update(login).update('\0').update(password).digest('hex');
  }

  get(login: string, password: string): CachedCredential | undefined {
    return this.cache?.get(this.key(login, password));
  }

  set(login: string, password: string, value: CachedCredential): void {
    this.cache?.set(this.key(login, password), value);
  }

  forgetPassword(passwordId: string): void {
    this.evict((entry) => entry.passwordId === passwordId);
  }

  forgetUser(userId: number): void {
    this.evict((entry) => entry.user.id === userId);
  }

  private evict(matches: (entry: CachedCredential) => boolean): void {
    if (!this.cache) return;
    for (const [key, entry] of this.cache.entries()) if (matches(entry)) this.cache.delete(key);
  }
}
