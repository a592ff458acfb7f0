import { describe, expect, it } from '@jest/globals';
import { QueryFailedError } from 'typeorm';
import { isRetryableMigrationError, withMigrationRetries } from './migration-retry';

const serverError = (errno: number, message: string) =>
  new QueryFailedError('SELECT 1', [], Object.assign(new Error(message), { errno }));
const lostTempFile = serverError(1011, "Error on delete of '/tmp/#sql-temptable-ee0-62c-143a.MAI' (Errcode: 2)");

describe('migration runs after a passing server error', () => {
  it('tells passing server errors from the others', () => {
    expect(isRetryableMigrationError(lostTempFile)).toBe(true);
    expect(isRetryableMigrationError(serverError(1213, 'Deadlock found'))).toBe(true);
    expect(isRetryableMigrationError(serverError(1205, 'Lock wait timeout exceeded'))).toBe(true);
    expect(isRetryableMigrationError(serverError(1064, 'You have an error in your SQL syntax'))).toBe(false);
    expect(isRetryableMigrationError(new Error('no errno'))).toBe(false);
  });

  it('runs again after one and returns what the next run gives', async () => {
    const calls: number[] = [];
    const retried: number[] = [];
    const result = await withMigrationRetries(
      () => {
        calls.push(calls.length + 1);
        return calls.length === 1 ? Promise.reject(lostTempFile) : Promise.resolve('done');
      },
      3,
      (_error, attempt) => retried.push(attempt),
    );
    expect({ result, calls, retried }).toEqual({ result: 'done', calls: [1, 2], retried: [1] });
  });

  it('gives up after the last attempt, and at once on any other error', async () => {
    let runs = 0;
    await expect(
      withMigrationRetries(
        () => (runs++, Promise.reject(lostTempFile)),
        3,
        () => undefined,
      ),
    ).rejects.toBe(lostTempFile);
    expect(runs).toBe(3);
    const syntax = serverError(1064, 'syntax');
    runs = 0;
    await expect(
      withMigrationRetries(
        () => (runs++, Promise.reject(syntax)),
        3,
        () => undefined,
      ),
    ).rejects.toBe(syntax);
    expect(runs).toBe(1);
  });
});
