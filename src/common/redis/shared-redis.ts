import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { RedisOutages } from './redis-outages';

/** How long start-up waits for Redis before it goes on degraded (a boot, not a request, waits). */
const CONNECT_WAIT_MS = 5000;
/** How often a connected Redis is asked whether it still answers. */
const HEARTBEAT_MS = 1000;

/**
 * The Redis that several instances share (`REDIS_URL`): login and event-password limits, the credential
 * epoch. Commands fail at once while it is unreachable (no offline queue), so callers fall back to their
 * degraded mode instead of waiting: per-instance limits, short credential-cache lifetimes. ioredis keeps
 * reconnecting in the background; `available` says whether it is reachable now (readiness, metrics).
 *
 * A Redis that is frozen rather than stopped (a stopped process, a full disk, a network that drops
 * packets) keeps its connection open and answers nothing. Every command therefore has a deadline
 * (`REDIS_COMMAND_TIMEOUT_MS`), and a heartbeat asks every second: a connection whose PING misses the
 * deadline is dropped and made again, and ioredis calls it ready only once the server answers its ready
 * check. Until then `available` is false: callers skip Redis at once, readiness says degraded.
 */
@Injectable()
export class SharedRedis implements OnModuleInit, OnApplicationShutdown {
  readonly client: Redis | null;
  private readonly prefix: string;

  constructor(
    config: AppConfig,
    private readonly outages: RedisOutages,
  ) {
    const redis = config.redis;
    this.prefix = redis?.prefix ?? '';
    this.client = redis
      ? new Redis(redis.url, {
          lazyConnect: true,
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
          // ioredis waits this long for a closed stream's "close" that never comes when it never connected.
          disconnectTimeout: 200,
          commandTimeout: redis.commandTimeoutMs,
          connectTimeout: Math.max(redis.commandTimeoutMs, 1000),
        })
      : null;
    if (this.client) outages.watch('shared', this.client);
  }

  private readonly logger = new Logger('Redis');
  /** The token of Redis' keys as this process last saw it (`readKeys`); null before the first read. */
  private keysToken: string | null = null;
  /** When this process last found Redis' keys lost (a flush, a new server), in Unix ms. */
  private lostKeysAt: number | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private probing: Promise<void> | null = null;

  /**
   * A PING that misses the deadline drops the connection: not ready until the server answers again.
   * The heartbeat's round; a caller that asks while one runs waits for that one.
   */
  probe(): Promise<void> {
    this.probing ??= this.probeNow().finally(() => (this.probing = null));
    return this.probing;
  }

  private async probeNow(): Promise<void> {
    const client = this.client;
    if (!client || client.status !== 'ready') return;
    try {
      // Also notices a flush within a second when no request reads Redis.
      await this.readKeys([]);
    } catch {
      if (client.status === 'ready') {
        this.outages.failed('shared', new Error('no answer to PING within REDIS_COMMAND_TIMEOUT_MS'));
        client.disconnect(true);
      }
    }
  }

  /**
   * Reads `names` (full keys) together with a token that lives as long as Redis keeps its keys, in one round
   * trip. A token missing or different from the one this process saw last means Redis lost its keys (it was
   * flushed, or replaced by another server): read-your-writes marks and the credential epoch went with them,
   * and their readers fall back (`lostKeysWithin`). A missing token is made again (the first instance's wins).
   */
  async readKeys(names: string[]): Promise<{ values: (string | null)[]; token: string }> {
    const client = this.client!;
    const tokenKey = this.key('keys-token');
    const read = await client.mget(...names, tokenKey);
    let token = read[names.length];
    if (token === null) {
      await client.set(tokenKey, randomUUID(), 'NX');
      token = (await client.get(tokenKey)) ?? '';
    }
    if (this.keysToken !== null && token !== this.keysToken) {
      this.lostKeysAt = Date.now();
      this.logger.warn({
        msg: 'Redis lost its keys (flushed, or another server): signed-in callers read from the primary until the read-your-writes marks would have run out, and cached credentials are verified again',
      });
    }
    this.keysToken = token;
    return { values: read.slice(0, names.length), token };
  }

  /** Whether this process found Redis' keys lost within the last `ms`. */
  lostKeysWithin(ms: number): boolean {
    return this.lostKeysAt !== null && Date.now() - this.lostKeysAt < ms;
  }

  /** Resolves once Redis is ready (at once when it is); for what must not go on without it. */
  ready(): Promise<void> {
    const client = this.client;
    if (!client || client.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => client.once('ready', () => resolve()));
  }

  async onModuleInit(): Promise<void> {
    if (!this.client) return;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CONNECT_WAIT_MS)));
    await Promise.race([this.client.connect().catch(() => undefined), waited]);
    clearTimeout(timer);
    if (!this.available) this.outages.failed('shared', new Error('not reachable at start'));
    // The keys' token as they are now, so that a flush before the first heartbeat is noticed too.
    else await this.readKeys([]).catch(() => undefined);
    this.heartbeat = setInterval(() => void this.probe(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (!this.client) return;
    // Not connected: stop reconnecting (quit would wait for a connection that may never come).
    if (this.client.status !== 'ready') this.client.disconnect();
    else await this.client.quit().catch(() => this.client?.disconnect());
  }

  /** Whether `REDIS_URL` is set. */
  get configured(): boolean {
    return this.client !== null;
  }

  /** Whether Redis answers now. */
  get available(): boolean {
    return this.client?.status === 'ready';
  }

  /** A key under this service's prefix (`REDIS_KEY_PREFIX`). */
  key(name: string): string {
    return `${this.prefix}:${name}`;
  }
}
