import { Injectable } from '@nestjs/common';
import { Mutex, withTimeout, type MutexInterface } from 'async-mutex';
import { setTimeout as delay } from 'node:timers/promises';
import { DataSource, type EntityManager } from 'typeorm';
import { isRetryableWriteConflict } from '../common/errors/driver-errors';
import { AppConfig } from '../config/app-config';
import { Clock } from '../common/dates/clock';
import { ChangeLogWriter } from './changes/change-log-writer';
import { CommitSteps } from './commit-steps';
import { mergeChanges } from './changes/recorded-change';
import { ContentVersion } from './content-version';
import { DatabaseContext } from './database-context';

/** Attempts of one write before its conflict reaches the client (as 409 or 503). */
export const MAX_WRITE_ATTEMPTS = 8;

/** Full jitter over an exponential ceiling: 10, 20, 40 … ms, at most 320 ms between attempts. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(320, 10 * 2 ** (attempt - 1)));
}

/**
 * Every multi-row write runs through here: one transaction, retried whole when the database reports a
 * conflict a retry resolves (deadlock, lock wait timeout, a unique key another writer just took), so
 * two editors saving into one category both succeed. The work must therefore be safe to run again:
 * read what it needs inside the transaction, keep no state outside it. Its last statements increment
 * the content version (`ContentVersion`), which is what makes caches of reads exact, and write the
 * changes the work recorded to the change log (`ChangeLogWriter`); before those, the modules' `CommitSteps`
 * bring their derived rows in step with the changes. The work reaches the
 * transaction through `DatabaseContext.manager`; a `run` inside another joins the outer transaction
 * (and its retries).
 *
 * SQLite: TypeORM shares one connection among all transactions, so two concurrent transactions would
 * interleave as savepoints of one another (one's rollback undoing the other's committed work). A
 * process-wide lock runs them one at a time, which is what SQLite's single writer does anyway; a write
 * that waits longer than `DB_QUERY_TIMEOUT_SECONDS` for it gets a 503.
 */
@Injectable()
export class WriteTransactions {
  private readonly sqliteWriter: MutexInterface | null;

  constructor(
    private readonly db: DatabaseContext,
    dataSource: DataSource,
    config: AppConfig,
    private readonly version: ContentVersion,
    private readonly changeLog: ChangeLogWriter,
    private readonly clock: Clock,
    private readonly commitSteps: CommitSteps,
  ) {
    // A writer stuck for longer than a statement may take fails the ones queued behind it with a 503.
    const queueTimeout = Object.assign(new Error('timed out waiting for the SQLite writer'), {
      code: 'WRITE_QUEUE_TIMEOUT',
    });
    this.sqliteWriter =
      dataSource.options.type === 'better-sqlite3'
        ? withTimeout(new Mutex(), config.databaseQueryTimeoutSeconds * 1000, queueTimeout)
        : null;
  }

  /**
   * @param options.content false for writes no reader can see (the readiness probe): they leave the
   * content version, and so every cached answer, as it is.
   */
  async run<T>(work: () => Promise<T>, options: { content?: boolean } = {}): Promise<T> {
    if (this.db.inTransaction) return work();
    const announced =
      options.content === false
        ? work
        : async () => {
            const result = await work();
            const changes = mergeChanges(this.db.recordedChanges);
            await this.commitSteps.run(changes);
            const changedUtc = this.clock.nowSqlUtc();
            const seq = await this.version.bumpInTransaction(changedUtc, changes.length > 0);
            if (seq !== null) await this.changeLog.write(seq, changedUtc, changes);
            return result;
          };
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(announced, options.content !== false);
      } catch (error) {
        if (attempt >= MAX_WRITE_ATTEMPTS || !isRetryableWriteConflict(error)) throw error;
        await delay(retryDelayMs(attempt));
      }
    }
  }

  /**
   * A single-statement write that no reader's cached answer depends on (a new user, an application
   * password, a mark of the service's own), outside a transaction: in the caller's transaction when there
   * is one; else on the primary, on SQLite queued behind the writer like a transaction, so that it never
   * lands inside another request's open transaction (and is never lost with that one's rollback).
   */
  single<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const write = () => work(this.db.writesOutsideTransactions);
    if (this.db.inTransaction || !this.sqliteWriter) return write();
    return this.sqliteWriter.runExclusive(write);
  }

  /**
   * `content`: only a transaction that changes content ends a generation; the others (the readiness probe,
   * the webhook dispatcher every few seconds) would otherwise empty the response cache each time.
   */
  private once<T>(work: () => Promise<T>, content: boolean): Promise<T> {
    const transaction = () =>
      this.db.inNewTransaction(work).finally(() => {
        if (content) this.version.transactionEnded();
      });
    return this.sqliteWriter ? this.sqliteWriter.runExclusive(transaction) : transaction();
  }
}
