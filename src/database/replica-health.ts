import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseContext } from './database-context';

const CHECK_EVERY_MS = 2000;

/**
 * Whether the read replicas answer: a `SELECT 1` on one every two seconds. While none does, requests read
 * from the primary (`ReplicaReads`) instead of failing; readiness and metrics say so. Requests that began
 * on a replica that then went away fail with 503 until the next check notices.
 */
@Injectable()
export class ReplicaHealth implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private timer: NodeJS.Timeout | null = null;
  available = true;

  constructor(
    private readonly db: DatabaseContext,
    private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.db.hasReplicas) return;
    this.timer = setInterval(() => void this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Asks a replica now; returns (and remembers) whether one answered. */
  async check(): Promise<boolean> {
    if (!this.db.hasReplicas) return false;
    const runner = this.dataSource.createQueryRunner('slave');
    const answered = await runner
      .query('SELECT 1')
      .then(
        () => true,
        () => false,
      )
      .finally(() => runner.release().catch(() => undefined));
    if (answered !== this.available) {
      if (answered) this.logger.log('a read replica answers again: reads go back to the replicas');
      else this.logger.warn('no read replica answers: reads go to the primary meanwhile');
    }
    this.available = answered;
    return answered;
  }
}
