import { describe, expect, it, jest } from '@jest/globals';
import type { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { MAX_WRITE_ATTEMPTS, retryDelayMs, WriteTransactions } from './write-transactions';

const config = { databaseQueryTimeoutSeconds: 5 } as AppConfig;
const driverError = (fields: Record<string, unknown>) => Object.assign(new Error('driver'), fields);

/** A data source whose `transaction` runs the work with a dummy manager, counting the attempts. */
function fakeDataSource(type: 'mysql' | 'better-sqlite3') {
  const transaction = jest.fn(async (work: (m: EntityManager) => Promise<unknown>) => work({} as EntityManager));
  return { dataSource: { options: { type }, transaction } as unknown as DataSource, transaction };
}

describe('WriteTransactions', () => {
  it.each([
    ['a deadlock', { errno: 1213, code: 'ER_LOCK_DEADLOCK' }],
    ['a lock wait timeout', { errno: 1205 }],
    ['a unique-key race', { errno: 1062, code: 'ER_DUP_ENTRY' }],
    ['a busy SQLite file', { code: 'SQLITE_BUSY' }],
  ])('runs the whole transaction again after %s', async (_label, fields) => {
    const { dataSource, transaction } = fakeDataSource('mysql');
    let calls = 0;
    const result = await new WriteTransactions(dataSource, config).run(async () => {
      if (++calls < 3) throw driverError(fields);
      return 'done';
    });
    expect(result).toBe('done');
    expect(transaction).toHaveBeenCalledTimes(3);
  });

  it('gives up after a bounded number of attempts, with the last error', async () => {
    const { dataSource, transaction } = fakeDataSource('mysql');
    const deadlock = driverError({ errno: 1213 });
    await expect(new WriteTransactions(dataSource, config).run(() => Promise.reject(deadlock))).rejects.toBe(deadlock);
    expect(transaction).toHaveBeenCalledTimes(MAX_WRITE_ATTEMPTS);
  });

  it('never retries what a retry cannot fix', async () => {
    const { dataSource, transaction } = fakeDataSource('better-sqlite3');
    const bug = new TypeError('x is undefined');
    await expect(new WriteTransactions(dataSource, config).run(() => Promise.reject(bug))).rejects.toBe(bug);
    expect(transaction).toHaveBeenCalledTimes(1);
  });

  it('runs SQLite transactions one at a time', async () => {
    const { dataSource } = fakeDataSource('better-sqlite3');
    const transactions = new WriteTransactions(dataSource, config);
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

  it('waits a jittered, growing, capped time between attempts', () => {
    expect(retryDelayMs(1, () => 0.999)).toBe(9);
    expect(retryDelayMs(3, () => 0.999)).toBe(39);
    expect(retryDelayMs(20, () => 0.999)).toBe(319);
    expect(retryDelayMs(5, () => 0)).toBe(0);
  });
});
