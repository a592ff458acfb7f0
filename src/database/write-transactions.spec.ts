import { describe, expect, it, jest } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/dates/clock';
import type { AppConfig } from '../config/app-config';
import type { ChangeLogWriter } from './changes/change-log-writer';
import type { RecordedChange } from './changes/recorded-change';
import type { ContentVersion } from './content-version';
import type { DatabaseContext } from './database-context';
import { CommitSteps } from './commit-steps';
import { MAX_WRITE_ATTEMPTS, retryDelayMs, WriteTransactions } from './write-transactions';

const config = { databaseQueryTimeoutSeconds: 5 } as AppConfig;
const driverError = (fields: Record<string, unknown>) => Object.assign(new Error('driver'), fields);

/** A context whose new transactions just run the work, counting the attempts. */
function fakeDatabase(type: 'mysql' | 'better-sqlite3', inTransaction = false) {
  const transaction = jest.fn(async (work: () => Promise<unknown>) => work());
  const recorded: RecordedChange[] = [];
  const db = {
    inTransaction,
    inNewTransaction: transaction,
    recordedChanges: recorded,
    yieldTurn: async () => undefined,
  } as unknown as DatabaseContext;
  const dataSource = { options: { type } } as unknown as DataSource;
  const version = {
    bumpInTransaction: jest.fn(async (_at: string, readBack: boolean): Promise<number | null> => (readBack ? 7 : null)),
    transactionEnded: jest.fn(),
  };
  const changeLog = {
    write: jest.fn(async (_seq: number, _at: string, _changes: RecordedChange[]): Promise<void> => undefined),
  };
  const commitSteps = new CommitSteps(db);
  return {
    transactions: new WriteTransactions(
      db,
      dataSource,
      config,
      version as unknown as ContentVersion,
      changeLog as unknown as ChangeLogWriter,
      new Clock(),
      commitSteps,
    ),
    commitSteps,
    transaction,
    version,
    changeLog,
    recorded,
  };
}

const change = (resourceId: number, action: RecordedChange['action']): RecordedChange => ({
  resource: 'event',
  resourceId,
  action,
  publicBefore: false,
  publicAfter: true,
  authorId: null,
});

describe('WriteTransactions', () => {
  it.each([
    ['a deadlock', { errno: 1213, code: 'ER_LOCK_DEADLOCK' }],
    ['a lock wait timeout', { errno: 1205 }],
    ['a unique-key race', { errno: 1062, code: 'ER_DUP_ENTRY' }],
    ['a busy SQLite file', { code: 'SQLITE_BUSY' }],
  ])('runs the whole transaction again after %s', async (_label, fields) => {
    const { transactions, transaction } = fakeDatabase('mysql');
    let calls = 0;
    const result = await transactions.run(async () => {
      if (++calls < 3) throw driverError(fields);
      return 'done';
    });
    expect(result).toBe('done');
    expect(transaction).toHaveBeenCalledTimes(3);
  });

  it('gives up after a bounded number of attempts, with the last error', async () => {
    const { transactions, transaction } = fakeDatabase('mysql');
    const deadlock = driverError({ errno: 1213 });
    await expect(transactions.run(() => Promise.reject(deadlock))).rejects.toBe(deadlock);
    expect(transaction).toHaveBeenCalledTimes(MAX_WRITE_ATTEMPTS);
  });

  it('never retries what a retry cannot fix', async () => {
    const { transactions, transaction } = fakeDatabase('better-sqlite3');
    const bug = new TypeError('x is undefined');
    await expect(transactions.run(() => Promise.reject(bug))).rejects.toBe(bug);
    expect(transaction).toHaveBeenCalledTimes(1);
  });

  it('runs SQLite transactions one at a time', async () => {
    const { transactions } = fakeDatabase('better-sqlite3');
    const order: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = transactions.run(async () => {
      order.push('first:start');
      await gate;
      order.push('first:end');
    });
    const second = transactions.run(async () => {
      order.push('second');
    });
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first:start', 'first:end', 'second']);
  });

  it('joins a transaction already under way: no second transaction, no retries of its own', async () => {
    const { transactions, transaction } = fakeDatabase('better-sqlite3', true);
    const deadlock = driverError({ errno: 1213 });
    await expect(transactions.run(() => Promise.resolve('inner'))).resolves.toBe('inner');
    await expect(transactions.run(() => Promise.reject(deadlock))).rejects.toBe(deadlock);
    expect(transaction).not.toHaveBeenCalled();
  });

  it('increments the content version as the last step of each attempt, and ends a generation every time', async () => {
    const { transactions, version } = fakeDatabase('mysql');
    const order: string[] = [];
    version.bumpInTransaction.mockImplementation(async () => {
      order.push('bump');
      return null;
    });
    let calls = 0;
    await transactions.run(async () => {
      order.push('work');
      if (++calls === 1) throw driverError({ errno: 1213 });
    });
    expect(order).toEqual(['work', 'work', 'bump']);
    expect(version.transactionEnded).toHaveBeenCalledTimes(2);
  });

  it('writes the recorded changes, merged per resource, under the sequence value the increment returned', async () => {
    const { transactions, version, changeLog, recorded } = fakeDatabase('mysql');
    await transactions.run(async () => {
      recorded.push(change(3, 'created'), change(4, 'updated'), change(3, 'status_changed'));
    });
    expect(version.bumpInTransaction).toHaveBeenCalledWith(expect.any(String), true);
    expect(changeLog.write).toHaveBeenCalledWith(7, expect.any(String), [change(3, 'created'), change(4, 'updated')]);
  });

  it("runs the modules' commit steps with the merged changes, inside the transaction, before the version moves", async () => {
    const { transactions, version, commitSteps, recorded, transaction } = fakeDatabase('mysql');
    const order: string[] = [];
    const seen: (readonly RecordedChange[])[] = [];
    commitSteps.add(async (changes) => {
      order.push(`step in transaction: ${transaction.mock.calls.length}`);
      seen.push(changes);
    });
    version.bumpInTransaction.mockImplementation(async () => {
      order.push('bump');
      return 7;
    });
    await transactions.run(async () => {
      recorded.push(change(3, 'created'), change(3, 'updated'));
    });
    expect(order).toEqual(['step in transaction: 1', 'bump']);
    expect(seen).toEqual([[change(3, 'created')]]);
    await transactions.run(async () => 'probe', { content: false });
    expect(seen).toHaveLength(1);
  });

  it('reads no sequence value back and writes no log rows when nothing was recorded', async () => {
    const { transactions, version, changeLog } = fakeDatabase('mysql');
    await transactions.run(async () => 'nothing');
    expect(version.bumpInTransaction).toHaveBeenCalledWith(expect.any(String), false);
    expect(changeLog.write).not.toHaveBeenCalled();
  });

  it('leaves the content version alone for writes readers cannot see', async () => {
    const { transactions, version } = fakeDatabase('mysql');
    await transactions.run(async () => 'probe', { content: false });
    expect(version.bumpInTransaction).not.toHaveBeenCalled();
    // Nor the generation: cached answers stay valid across such writes.
    expect(version.transactionEnded).not.toHaveBeenCalled();
  });

  it('waits a jittered, growing, capped time between attempts', () => {
    expect(retryDelayMs(1, () => 0.999)).toBe(9);
    expect(retryDelayMs(3, () => 0.999)).toBe(39);
    expect(retryDelayMs(20, () => 0.999)).toBe(319);
    expect(retryDelayMs(5, () => 0)).toBe(0);
  });
});
