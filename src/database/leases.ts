import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DatabaseClock } from './database-clock';
import { DatabaseContext } from './database-context';
import { WriteTransactions } from './write-transactions';

/**
 * A lease's name: the service's own (`future-posts`) or a module's periodic job's (prefix it with the module's
 * name). At most 64 characters. A lease's row is made the first time it is asked for.
 */
export type LeaseName = string;

/**
 * Named leases in the database, so that among many instances one at a time does a job (the scheduled-post
 * publisher): a process takes a lease that is free or run out, renews it while it holds it, and another
 * takes it over once it has run out (the holder stopped or died). Works on every database, with or
 * without Redis. Expiry is the database's clock (`DatabaseClock`), not the process's: an instance whose
 * clock runs fast would otherwise see every other holder's lease as run out, and its own as never.
 */
@Injectable()
export class Leases {
  /** This process, as the leases' `owner`. */
  readonly owner = randomUUID();

  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly clock: DatabaseClock,
  ) {}

  /** Takes or renews `name` for `ms`; true when this process holds it now. */
  acquire(name: LeaseName, ms: number): Promise<boolean> {
    if (name.length === 0 || name.length > 64)
      return Promise.reject(new Error(`lease name "${name}" must have 1 to 64 characters`));
    return this.transactions.run(
      async () => {
        const now = await this.clock.nowSqlUtc();
        await this.ensureRow(name);
        await this.db.manager
          .createQueryBuilder()
          .update('leases')
          .set({ owner: this.owner, expires_utc: DatabaseClock.plus(now, ms) })
          .where('name = :name', { name })
          .andWhere('(owner = :owner OR expires_utc < :now)', { owner: this.owner, now })
          .execute();
        // Read back rather than trust the affected-row count: MySQL counts only changed rows, and a
        // renewal within the same second changes none.
        const row = await this.db.manager
          .createQueryBuilder()
          .select('l.owner', 'owner')
          .from('leases', 'l')
          .where('l.name = :name', { name })
          .getRawOne<{ owner: string }>();
        return row?.owner === this.owner;
      },
      { content: false },
    );
  }

  /**
   * Runs `work` holding `name`, renewed every third of `ms` while it runs, then gives it up: a job may take
   * longer than `ms`, and one whose process died frees the lease within `ms`. Null, and `work` not run, when
   * another process holds it.
   */
  async hold<T>(name: LeaseName, ms: number, work: () => Promise<T>): Promise<T | null> {
    if (!(await this.acquire(name, ms))) return null;
    const renewal = setInterval(() => {
      // A renewal that fails (the database away for a moment) is tried again at the next tick; the lease
      // lasts three ticks.
      this.acquire(name, ms).catch(() => undefined);
    }, ms / 3);
    renewal.unref();
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      await this.release(name);
    }
  }

  /** Gives `name` up if this process holds it, so another may take it at once (a job that is done). */
  async release(name: LeaseName): Promise<void> {
    await this.transactions.run(
      async () => {
        await this.db.manager
          .createQueryBuilder()
          .update('leases')
          .set({ expires_utc: '2000-01-01 00:00:00' })
          .where('name = :name AND owner = :owner', { name, owner: this.owner })
          .execute();
      },
      { content: false },
    );
  }

  /**
   * The lease's row, made free (long run out) when no one asked for it before. Two instances making it at once:
   * the second's insert fails on the primary key and its transaction runs again, finding the row.
   */
  private async ensureRow(name: string): Promise<void> {
    const existing = await this.db.manager
      .createQueryBuilder()
      .select('l.name', 'name')
      .from('leases', 'l')
      .where('l.name = :name', { name })
      .getRawOne<{ name: string }>();
    if (!existing)
      await this.db.insertOnly(
        'leases',
        [{ name, owner: '', expires_utc: '2000-01-01 00:00:00' }],
        ['name', 'owner', 'expires_utc'],
      );
  }
}
