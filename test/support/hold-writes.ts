import { DatabaseContext } from '../../src/database/database-context';
import { WriteTransactions } from '../../src/database/write-transactions';
import type { TestApp } from './create-test-app';

/** Holds the database's write side (the row the health probe writes, or SQLite's writer) until released. */
export function holdWrites(t: TestApp): { release: () => void; done: Promise<void> } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const db = t.app.get(DatabaseContext);
  const done = t.app.get(WriteTransactions).run(async () => {
    await db.manager.createQueryBuilder().update('write_locks').set({ generation: 7 }).where('id = 0').execute();
    await gate;
  });
  return { release, done };
}
