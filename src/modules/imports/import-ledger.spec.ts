import { describe, expect, it } from '@jest/globals';
import type { AppConfig } from '../../config/app-config';
import type { Clock } from '../../common/dates/clock';
import type { DatabaseContext } from '../../database/database-context';
import type { WriteTransactions } from '../../database/write-transactions';
import type { UsersService } from '../../auth/users.service';
import { ImportLedger, type KnownRecord } from './import-ledger';
import { emptySummary, type ImportOutcome } from './import-summary';

/** A conflict the database ends the whole transaction with (MySQL's deadlock). */
const deadlock = () =>
  Object.assign(new Error('Deadlock found when trying to get lock'), { errno: 1213, code: 'ER_LOCK_DEADLOCK' });

/**
 * The ledger over a fake database: statements are logged, `run` calls its work as WriteTransactions does
 * (retried whole on a conflict, `attempts` times at most), recorded changes kept in a list.
 */
function ledgerWith(options: { failCommits?: number } = {}) {
  const log: string[] = [];
  let changes: string[] = [];
  let failCommits = options.failCommits ?? 0;
  const db = {
    get manager() {
      return { query: (sql: string) => (log.push(sql), Promise.resolve()) };
    },
    get recordedChanges() {
      return changes;
    },
    forgetChangesAfter: (count: number) => (changes = changes.slice(0, count)),
    record: (change: string) => changes.push(change),
  };
  const transactions = {
    async run<T>(work: () => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        changes = [];
        log.push('BEGIN');
        try {
          const result = await work();
          if (failCommits-- > 0) throw new Error('the connection was lost at COMMIT');
          log.push(`COMMIT ${changes.join(',')}`);
          return result;
        } catch (error) {
          log.push('ROLLBACK');
          if (attempt >= 3 || (error as { errno?: number }).errno !== 1213) throw error;
        }
      }
    },
  };
  const ledger = new ImportLedger(
    db as unknown as DatabaseContext,
    transactions as unknown as WriteTransactions,
    {} as UsersService,
    {} as AppConfig,
    { nowSqlUtc: () => '2027-01-01 00:00:00' } as Clock,
  );
  return { ledger, log, db };
}

const written =
  (db: { record: (c: string) => void }, name: string, outcome: ImportOutcome = 'created') =>
  () => {
    db.record(name);
    return Promise.resolve(outcome);
  };

describe('ImportLedger batches', () => {
  it('writes the queued records in one transaction, each behind a savepoint, and counts them', async () => {
    const { ledger, log, db } = ledgerWith();
    const summary = emptySummary('test', false);
    await ledger.run(summary, async () => {
      for (let i = 0; i < 3; i++) await ledger.attempt(summary, `r${i}`, written(db, `c${i}`));
    });
    expect(summary.created).toBe(3);
    expect(log.filter((l) => l === 'BEGIN')).toHaveLength(1);
    expect(log.filter((l) => l === 'SAVEPOINT import_record')).toHaveLength(3);
    expect(log.at(-1)).toBe('COMMIT c0,c1,c2');
  });

  it('keeps a failing record out of the batch, its changes unannounced, the others written', async () => {
    const { ledger, log, db } = ledgerWith();
    const summary = emptySummary('test', false);
    await ledger.run(summary, async () => {
      await ledger.attempt(summary, 'good', written(db, 'good'));
      await ledger.attempt(summary, 'bad', () => {
        db.record('half');
        return Promise.reject(new Error('end_date must not be before start_date'));
      });
      await ledger.attempt(summary, 'also good', written(db, 'also'));
    });
    expect(summary).toMatchObject({ created: 2, failed: [{ id: 'bad', reason: expect.stringContaining('end_date') }] });
    expect(log).toContain('ROLLBACK TO SAVEPOINT import_record');
    expect(log.at(-1)).toBe('COMMIT good,also');
  });

  it('runs a batch a deadlock rolled back again from the state before it, counting nothing twice', async () => {
    const { ledger, log, db } = ledgerWith();
    const summary = emptySummary('test', false);
    const known = new Map<string, KnownRecord>();
    ledger.track(summary, known);
    let deadlocks = 1;
    await ledger.run(summary, async () => {
      await ledger.attempt(summary, 'first', () => {
        // What the record became here: set by the work, and set back when its batch starts over.
        known.set('first', { rowId: known.size + 1, id: 10 + known.size, hash: 'h', importedUtc: '' });
        return written(db, 'first')();
      });
      await ledger.attempt(summary, 'second', () =>
        deadlocks-- > 0 ? Promise.reject(deadlock()) : written(db, 'second', 'updated')(),
      );
    });
    expect(summary).toMatchObject({ created: 1, updated: 1, failed: [] });
    expect([...known.values()].map((k) => k.id)).toEqual([10]);
    expect(log.filter((l) => l === 'BEGIN')).toHaveLength(2);
    expect(log.at(-1)).toBe('COMMIT first,second');
  });

  it('writes a batch that cannot commit record by record, each in its own transaction', async () => {
    const { ledger, log, db } = ledgerWith({ failCommits: 1 });
    const summary = emptySummary('test', false);
    await ledger.run(summary, async () => {
      await ledger.attempt(summary, 'a', written(db, 'a'));
      await ledger.attempt(summary, 'b', written(db, 'b'));
    });
    expect(summary).toMatchObject({ created: 2, failed: [] });
    expect(log.filter((l) => l.startsWith('COMMIT'))).toEqual(['COMMIT a', 'COMMIT b']);
  });

  it('writes what was queued before the run failed', async () => {
    const { ledger, db } = ledgerWith();
    const summary = emptySummary('test', false);
    await expect(
      ledger.run(summary, async () => {
        await ledger.attempt(summary, 'a', written(db, 'a'));
        throw new Error('the site answered 500');
      }),
    ).rejects.toThrow('500');
    expect(summary.created).toBe(1);
  });
});
