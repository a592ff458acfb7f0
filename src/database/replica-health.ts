import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DatabaseClock } from './database-clock';
import { DatabaseContext } from './database-context';
import { connectionOf, dropConnection } from './dropped-connections';
import { sqlDateTime, sqlUtcToMs } from './datetime.transformer';

const CHECK_EVERY_MS = 1000;
/** A replica that has not answered the check by then counts as not answering. */
const CHECK_LIMIT_MS = 5000;
/** A replica not seen for this long no longer counts (it may have left the set). */
const FORGET_AFTER_MS = 30_000;

interface ReplicaSeen {
  /** When the replica's copy of the heartbeat was read (process clock, for forgetting only). */
  atMs: number;
  beatUtc: string;
  lagSeconds: number | null;
}

/**
 * Whether reads may go to the replicas. Every second each instance writes the primary's time (the
 * database's clock) into `replica_heartbeat` and reads the row back from a replica: the difference is how
 * far that replica is behind. A replica is read only while it answers and is at most
 * `REPLICA_MAX_LAG_SECONDS` behind; one whose SQL thread stopped, or that rejoins far behind, falls behind
 * the bound and reads go to the primary until it has caught up. TypeORM picks a replica per connection, so
 * with several the service reads from the primary while any recently seen one is behind (safe, coarse).
 *
 * `appliedUtc`: the oldest heartbeat the replicas are known to have applied. A commit made before a
 * heartbeat with a later time is on every replica that applied that heartbeat (ReplicaReads: a writer
 * reads from the primary until then).
 *
 * With the primary down, the lag is unknown and the replicas are what serves reads.
 */
@Injectable()
export class ReplicaHealth implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private timer: NodeJS.Timeout | null = null;
  private readonly seen = new Map<string, ReplicaSeen>();
  private checking: Promise<boolean> | null = null;
  /** Reads may go to the replicas now. */
  available = true;
  /** A replica answered the last check. */
  reachable = true;

  constructor(
    private readonly db: DatabaseContext,
    private readonly dataSource: DataSource,
    private readonly clock: DatabaseClock,
    private readonly config: AppConfig,
  ) {
    db.replicaRunners.hooks.check = () => this.check();
  }

  onApplicationBootstrap(): void {
    if (!this.db.hasReplicas) return;
    void this.check();
    this.timer = setInterval(() => void this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The largest lag of the replicas seen lately, in seconds; null when unknown. */
  get lagSeconds(): number | null {
    const lags = this.fresh().map((r) => r.lagSeconds);
    return lags.length === 0 || lags.some((l) => l === null) ? null : Math.max(...(lags as number[]));
  }

  /** The oldest heartbeat every replica seen lately has applied (UTC SQL time); null when none seen. */
  get appliedUtc(): string | null {
    const beats = this.fresh().map((r) => r.beatUtc);
    return beats.length === 0 ? null : beats.reduce((a, b) => (a < b ? a : b));
  }

  /** Beats on the primary and asks a replica now; returns (and remembers) whether reads may go there. */
  check(): Promise<boolean> {
    this.checking ??= this.checkNow().finally(() => (this.checking = null));
    return this.checking;
  }

  private async checkNow(): Promise<boolean> {
    if (!this.db.hasReplicas) return false;
    const primaryNow = await this.beat();
    const row = await this.readReplicaBeat();
    this.reachable = row !== null;
    // Statements still waiting on a replica that does not answer go on on the primary now, not at their timeout.
    if (!this.reachable) this.db.replicaRunners.abandonAll();
    if (row) {
      const beatUtc = String(sqlDateTime.from(row.beat));
      const lagSeconds =
        primaryNow === null ? null : Math.max(0, (sqlUtcToMs(primaryNow) - sqlUtcToMs(beatUtc)) / 1000);
      this.seen.set(String(row.server), { atMs: Date.now(), beatUtc, lagSeconds });
    }
    const maxLag = this.config.replicaMaxLagSeconds;
    // Primary down: the lag is unknown, and the replicas are all there is to read from.
    const available =
      this.reachable && (primaryNow === null || this.fresh().every((r) => (r.lagSeconds ?? 0) <= maxLag));
    if (available !== this.available) {
      if (available) this.logger.log('the read replicas answer and are current: reads go to them again');
      else if (!this.reachable) this.logger.warn('no read replica answers: reads go to the primary meanwhile');
      else this.logger.warn(`a read replica is more than ${maxLag}s behind: reads go to the primary meanwhile`);
    }
    this.available = available;
    return available;
  }

  /**
   * A replica's copy of the heartbeat; null when none answers within a few seconds (a frozen replica must not
   * hold the check, and so every read routed to it, for a whole statement timeout).
   */
  private async readReplicaBeat(): Promise<{ server: number | string; beat: string | Date } | null> {
    const runner = this.dataSource.createQueryRunner('slave');
    const read = runner
      .query('SELECT @@server_id AS server, beat_utc AS beat FROM replica_heartbeat WHERE id = 1')
      .then(
        (rows: { server: number | string; beat: string | Date }[]) => rows[0] ?? null,
        () => null,
      )
      .finally(() => runner.release().catch(() => undefined));
    let timer: NodeJS.Timeout | undefined;
    const limitMs = Math.min(CHECK_LIMIT_MS, this.config.databaseQueryTimeoutSeconds * 1000);
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), limitMs)));
    try {
      const row = await Promise.race([read, late]);
      // Its statement is stuck on a replica that does not answer: the connection goes, not back to the pool.
      if (row === null) dropConnection(connectionOf(runner));
      return row;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Writes the primary's time into the heartbeat row; that time, or null when the primary did not answer. */
  private async beat(): Promise<string | null> {
    try {
      const now = await this.clock.nowSqlUtc();
      await this.dataSource.query('UPDATE replica_heartbeat SET beat_utc = ? WHERE id = 1 AND beat_utc < ?', [
        now,
        now,
      ]);
      return now;
    } catch {
      return null;
    }
  }

  private fresh(): ReplicaSeen[] {
    const since = Date.now() - FORGET_AFTER_MS;
    return [...this.seen.values()].filter((r) => r.atMs >= since);
  }
}
