import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { ContentVersion } from './content-version';
import type { DatabaseContext } from './database-context';

/** A data source whose reads of `write_sequence` stay pending until the test answers them. */
function fakeSequence() {
  const pending: ((value: number) => void)[] = [];
  const dataSource = {
    query: () => new Promise<{ value: number }[]>((resolve) => pending.push((value) => resolve([{ value }]))),
  } as unknown as DataSource;
  const version = new ContentVersion(
    { readsOutsideTransactions: dataSource } as unknown as DatabaseContext,
    dataSource,
  );
  const answer = async (value: number) => {
    const next = pending.shift();
    if (!next) throw new Error('no read is pending');
    next(value);
    await new Promise((r) => setImmediate(r));
  };
  return { version, pending, answer };
}

const NOW = '2030-01-01 12:00:00';

describe('ContentVersion', () => {
  it('reads the row once for all readers that arrive during one read', async () => {
    const { version, pending, answer } = fakeSequence();
    const first = version.current(NOW);
    const waiting = Array.from({ length: 10 }, () => version.current(NOW));
    expect(pending).toHaveLength(1);
    await answer(7);
    expect(pending).toHaveLength(1);
    await answer(8);
    expect((await first).key).toBe('7.0');
    expect(new Set((await Promise.all(waiting)).map((s) => s.key))).toEqual(new Set(['8.0']));
  });

  it('never hands a reader a value read before it arrived', async () => {
    const { version, pending, answer } = fakeSequence();
    const early = version.current(NOW);
    // Arrives while the first read is under way (a write may have committed after it was sent).
    const late = version.current(NOW);
    const later = version.current(NOW);
    await answer(1);
    expect(pending).toHaveLength(1);
    await answer(2);
    expect((await early).key).toBe('1.0');
    expect((await late).key).toBe('2.0');
    expect((await later).key).toBe('2.0');
  });

  it('changes the key when a transaction of this process ends, committed or not', async () => {
    const { version, answer } = fakeSequence();
    const before = version.current(NOW);
    await answer(5);
    version.transactionEnded();
    const after = version.current(NOW);
    await answer(5);
    expect((await before).key).not.toBe((await after).key);
  });

  it('is volatile once a scheduled change has come, until the sequence moves on', async () => {
    const { version, answer } = fakeSequence();
    let due: string | null = '2030-01-01 12:30:00';
    version.addHorizon(() => Promise.resolve(due));
    const early = version.current(NOW);
    await answer(3);
    await new Promise((r) => setImmediate(r));
    expect((await early).volatile).toBe(false);
    const late = version.current('2030-01-01 12:30:00');
    await answer(3);
    expect((await late).volatile).toBe(true);
    due = null;
    const published = version.current('2030-01-01 12:31:00');
    await answer(4);
    expect((await published).volatile).toBe(false);
  });
});
