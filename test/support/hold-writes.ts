import { DatabaseContext } from '../../src/database/database-context';
import { WriteTransactions } from '../../src/database/write-transactions';
import type { TestApp } from './create-test-app';

/**
 * Holds the database's write side (the row the health probe writes, or SQLite's writer) until released.
 * Resolves once the hold is in place, so the request a test sends next meets it, however busy the machine.
 */
export async function holdWrites(t: TestApp): Promise<{ release: () => void; done: Promise<void> }> {
  let release: () => void = () => undefined;
  let locked: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const db = t.app.get(DatabaseContext);
  const done = t.app.get(WriteTransactions).run(async () => {
    await db.manager.createQueryBuilder().update('write_locks').set({ generation: 7 }).where('id = 0').execute();
    locked();
    await gate;
  });
  await Promise.race([holding, done]);
  return { release, done };
}
