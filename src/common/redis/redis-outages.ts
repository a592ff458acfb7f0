import { messageOf } from '../errors/message-of';
import { Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';

/**
 * One warning when Redis becomes unreachable and one line when it is back, for the whole process. Every
 * Redis client (the shared one, the webhook queue's, BullMQ's own duplicates) reports here: ioredis emits an
 * error at each reconnect attempt and BullMQ printed each one, stack and all, to stderr (some 470 lines in a
 * 24 s outage per instance).
 */
@Injectable()
export class RedisOutages {
  private readonly logger = new Logger('Redis');
  /** The clients that have failed since they were last ready. */
  private readonly down = new Set<string>();

  /** Reports `client`'s errors and its recovery (ioredis `error` and `ready`). */
  watch(client: string, redis: Redis): void {
    redis.on('error', (error: unknown) => this.failed(client, error));
    redis.on('ready', () => this.recovered(client));
  }

  failed(client: string, error: unknown): void {
    const first = this.down.size === 0;
    this.down.add(client);
    if (first) {
      this.logger.warn({
        msg: `Redis is not reachable (${client}: ${messageOf(error)}): serving degraded (per-instance limits, webhook attempts wait) until it is`,
        client,
      });
    }
  }

  recovered(client: string): void {
    if (!this.down.delete(client) || this.down.size > 0) return;
    this.logger.log({ msg: 'Redis is reachable again', client });
  }

  /** Whether some client has failed and not recovered yet. */
  get outage(): boolean {
    return this.down.size > 0;
  }
}
