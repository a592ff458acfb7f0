import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseContext } from './database-context';

/** What cached content is valid for: the same `key` means the same data for every reader. */
export interface ContentSnapshot {
  /** The committed write sequence and this process's transaction generation. */
  key: string;
  /**
   * Content changes by itself without a write right now (a scheduled post's time has come and the
   * publisher has not flipped it yet): nothing may be served from or stored in a cache.
   */
  volatile: boolean;
  /**
   * When the content last changed (UTC, `YYYY-MM-DD HH:MM:SS`), as the write that changed it recorded it;
   * null before the first write since the column existed.
   */
  changedUtc: string | null;
}

interface Reading {
  key: string;
  horizonAt: string | null;
  changedUtc: string | null;
}

/** The UTC time (`YYYY-MM-DD HH:MM:SS`) at which stored content next changes without a write, if any. */
export type ContentHorizon = () => Promise<string | null>;

/**
 * The version of everything readers can see. Every committed content write increments one row of
 * `write_sequence` in its own transaction (`WriteTransactions`), so a reader on any instance that reads
 * the row before its data query knows which version its answer belongs to: a cache keyed by it is
 * exact, with no time-to-live staleness, across any number of instances.
 *
 * Concurrent readers share one read of the row, but only one sent after they arrived: a request waits
 * for the next read when one is already running, so it never takes a value that predates it.
 *
 * The generation counts this process's transactions that ended (committed or not). SQLite shares one
 * connection between the write transaction and concurrent reads, which therefore see uncommitted rows;
 * an answer computed then is keyed by the old generation and never served after the transaction ends.
 */
@Injectable()
export class ContentVersion {
  private generation = 0;
  private running: Promise<Reading> | null = null;
  private queued: Promise<Reading> | null = null;
  private readonly horizons: ContentHorizon[] = [];
  private horizon: { key: string; at: string | null } | null = null;

  constructor(
    private readonly db: DatabaseContext,
    private readonly dataSource: DataSource,
  ) {}

  /** Registers a source of self-changing content (scheduled posts). */
  addHorizon(horizon: ContentHorizon): void {
    this.horizons.push(horizon);
  }

  /**
   * Increments the sequence: near the end of a content write's transaction, since the sequence row stays
   * locked until commit. With `readBack`, returns the transaction's own new value (the change log's
   * `seq`), which no other writer can change before this transaction commits.
   */
  async bumpInTransaction(changedUtc: string, readBack: boolean): Promise<number | null> {
    const manager = this.db.manager;
    // The new value comes back with the update itself: MySQL reports `LAST_INSERT_ID(expr)` in the
    // statement's result header (as `insertId`), SQLite answers `RETURNING` rows; a read after it would
    // cost a round trip per write.
    if (this.dataSource.options.type === 'mysql') {
      const header: unknown = await manager.query(
        'UPDATE write_sequence SET value = LAST_INSERT_ID(value + 1), changed_utc = ? WHERE id = 1',
        [changedUtc],
      );
      return readBack ? sequenceValue(header, 'insertId') : null;
    }
    const rows: unknown = await manager.query(
      'UPDATE write_sequence SET value = value + 1, changed_utc = ? WHERE id = 1 RETURNING value',
      [changedUtc],
    );
    return readBack ? sequenceValue(Array.isArray(rows) ? rows[0] : undefined, 'value') : null;
  }

  transactionEnded(): void {
    this.generation++;
  }

  /** The version as of a read started after this call; `nowUtc` decides whether a horizon has passed. */
  current(nowUtc: string): Promise<ContentSnapshot> {
    return this.read().then((s) => ({
      key: s.key,
      volatile: s.horizonAt !== null && s.horizonAt <= nowUtc,
      changedUtc: s.changedUtc,
    }));
  }

  private read(): Promise<Reading> {
    // A request reading from a replica reads the version there, on its own connection: shared reads
    // would mix servers that are at different points.
    if (this.db.readsFromReplica) return this.fetch();
    if (!this.running) {
      const running = this.fetch().finally(() => {
        if (this.running === running) this.running = null;
      });
      this.running = running;
      return running;
    }
    // Chained on `running` itself, which settles after its `finally` cleared the slot.
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.read();
      });
    return this.queued;
  }

  private async fetch(): Promise<Reading> {
    const source = this.db.readsFromReplica ? this.db.manager : this.db.readsOutsideTransactions;
    const rows: { value: number | string; changed_utc: string | null }[] = await source.query(
      'SELECT value, changed_utc FROM write_sequence WHERE id = 1',
    );
    const key = `${String(rows[0]?.value ?? 0)}.${this.generation}`;
    // Read after the sequence, so the horizon is never older than the version it is stored with.
    if (this.horizon?.key !== key) {
      const times = await Promise.all(this.horizons.map((h) => h()));
      this.horizon = { key, at: times.filter((t): t is string => t !== null).sort()[0] ?? null };
    }
    return { key, horizonAt: this.horizon.at, changedUtc: rows[0]?.changed_utc ?? null };
  }
}

/** The sequence value a driver answered, or an error (a missing `write_sequence` row is a broken schema). */
function sequenceValue(answer: unknown, field: string): number {
  const value =
    typeof answer === 'object' && answer !== null ? Number((answer as Record<string, unknown>)[field]) : NaN;
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error('write_sequence did not answer its new value');
  return value;
}
