import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import '../common/http/request.types';
import { SharedRedis } from '../common/redis/shared-redis';
import { AppConfig } from '../config/app-config';
import { DatabaseContext } from './database-context';
import { ReplicaHealth } from './replica-health';

/**
 * Which requests read from a replica (`DATABASE_READ_URLS`): reads (GET, HEAD) do, on one replica
 * each; writes, and the reads of a user who wrote within `READ_YOUR_WRITES_SECONDS`, go to the primary,
 * so replica lag never hides a write from the one who made it (no 404 for what they just created). A
 * write marks its user before it runs, in Redis when `REDIS_URL` is set (the next read may reach another
 * instance), else in this process. While Redis is down, every signed-in caller reads from the primary.
 */
@Injectable()
export class ReplicaReads {
  private readonly local: LRUCache<number, true>;

  constructor(
    private readonly db: DatabaseContext,
    private readonly redis: SharedRedis,
    private readonly config: AppConfig,
    private readonly health: ReplicaHealth,
  ) {
    this.local = new LRUCache({ max: 100_000, ttl: Math.max(1, config.readYourWritesMs) });
  }

  readonly handle: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (!this.db.hasReplicas) return next();
    const userId = req.user?.id;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (userId === undefined) return next();
      this.markWrite(userId).then(() => next(), next);
      return;
    }
    // No replica answers: everyone reads from the primary until one does.
    if (!this.health.available) return next();
    const finished = new Promise<void>((resolve) => res.once('close', () => resolve()));
    (userId === undefined ? Promise.resolve(false) : this.wroteRecently(userId)).then(
      (primary) => (primary ? next() : this.db.withReplicaReads(finished, () => next())),
      next,
    );
  };

  private key(userId: number): string {
    return this.redis.key(`wrote:${userId}`);
  }

  private async markWrite(userId: number): Promise<void> {
    const ms = this.config.readYourWritesMs;
    if (ms === 0) return;
    this.local.set(userId, true);
    if (!this.redis.client) return;
    await this.redis.client.set(this.key(userId), '1', 'PX', ms).catch(() => undefined);
  }

  private async wroteRecently(userId: number): Promise<boolean> {
    if (this.config.readYourWritesMs === 0) return false;
    if (this.local.has(userId)) return true;
    if (!this.redis.client) return false;
    try {
      return (await this.redis.client.exists(this.key(userId))) === 1;
    } catch {
      return true;
    }
  }
}
