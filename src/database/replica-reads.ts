import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import '../common/http/request.types';
import { SharedRedis } from '../common/redis/shared-redis';
import { AppConfig } from '../config/app-config';
import { DatabaseContext } from './database-context';
import { Clock } from '../common/dates/clock';
import { DatabaseClock } from './database-clock';
import { sqlUtcToMs } from './datetime.transformer';
import { ReplicaHealth } from './replica-health';

/** The marker of a write that has not ended yet: its user reads from the primary meanwhile. */
const PENDING = 'pending';

/**
 * Which requests read from a replica (`DATABASE_READ_URLS`): reads (GET, HEAD) do, on one replica
 * each, while the replicas are current (ReplicaHealth); writes go to the primary, and so do a writer's
 * reads until a replica has applied the write: a write marks its user as it starts, and as it ends with
 * the primary's time then (the database's clock); the user reads from the primary until the replicas have
 * applied a heartbeat written later than that (ReplicaHealth.appliedUtc), and for at least
 * `READ_YOUR_WRITES_SECONDS`. However long the write took or the replica lags, the writer never gets a 404
 * for what they have just created. The marks live in Redis when `REDIS_URL` is set (the next read may
 * reach another instance), else in this process; while Redis is down, every signed-in caller reads from
 * the primary, and so does every signed-in caller for as long as a mark lives after Redis lost its keys (a
 * flush, a new server: `SharedRedis.readKeys`).
 */
@Injectable()
export class ReplicaReads {
  private readonly local: LRUCache<number, string>;
  private readonly markMs: number;

  constructor(
    private readonly db: DatabaseContext,
    private readonly redis: SharedRedis,
    private readonly config: AppConfig,
    private readonly health: ReplicaHealth,
    private readonly clock: DatabaseClock,
    private readonly time: Clock,
  ) {
    // Past the lag bound every read goes to the primary anyway: a mark need not outlive it.
    this.markMs = Math.max(config.readYourWritesMs, config.replicaMaxLagSeconds * 1000 + 5000);
    this.local = new LRUCache({ max: 100_000, ttl: this.markMs });
  }

  readonly handle: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (!this.db.hasReplicas) return next();
    const userId = req.user?.id;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (userId === undefined || this.config.readYourWritesMs === 0) return next();
      // Marked before the write runs, and again with the primary's time once it has ended (committed).
      res.once('finish', () => void this.markEnded(userId));
      this.mark(userId, PENDING).then(() => next(), next);
      return;
    }
    // No current replica: everyone reads from the primary until one is.
    if (!this.health.available) return next();
    const finished = new Promise<void>((resolve) => res.once('close', () => resolve()));
    (userId === undefined ? Promise.resolve(false) : this.readsOwnWrite(userId)).then(
      (primary) => (primary ? next() : this.db.withReplicaReads(finished, () => next())),
      next,
    );
  };

  private key(userId: number): string {
    return this.redis.key(`wrote:${userId}`);
  }

  private async markEnded(userId: number): Promise<void> {
    const ended = await this.clock.nowSqlUtc().catch(() => null);
    // Without the primary's time the pending mark stays, until it runs out.
    if (ended !== null) await this.mark(userId, ended);
  }

  private async mark(userId: number, value: string): Promise<void> {
    this.local.set(userId, value);
    if (!this.redis.client) return;
    await this.redis.client.set(this.key(userId), value, 'PX', this.markMs).catch(() => undefined);
  }

  /** Whether this user's reads must go to the primary: a write of theirs the replicas may not have yet. */
  private async readsOwnWrite(userId: number): Promise<boolean> {
    if (this.config.readYourWritesMs === 0) return false;
    let mark: string | null | undefined = this.local.get(userId);
    if (this.redis.client) {
      try {
        mark = (await this.redis.readKeys([this.key(userId)])).values[0] ?? mark;
      } catch {
        return true;
      }
      // Marks lost with Redis' keys (a flush): whoever may have written lately reads from the primary.
      if (this.redis.lostKeysWithin(this.markMs)) return true;
    }
    if (mark === undefined || mark === null) return false;
    if (mark === PENDING) return true;
    const applied = this.health.appliedUtc;
    const replicated = applied !== null && applied > mark;
    return !replicated || this.withinMinimum(mark);
  }

  /**
   * Within `READ_YOUR_WRITES_SECONDS` of the write's end. The mark has the database's time, "now" is the
   * process's: a bound to be on the safe side, not an exact one (the replicas' progress is what is exact).
   */
  private withinMinimum(mark: string): boolean {
    return this.time.now().getTime() - sqlUtcToMs(mark) < this.config.readYourWritesMs;
  }
}
