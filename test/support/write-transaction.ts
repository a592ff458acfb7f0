import type { EntityManager } from 'typeorm';
import { DatabaseContext } from '../../src/database/database-context';
import { WriteTransactions } from '../../src/database/write-transactions';
import type { TestApp } from './create-test-app';

/** Runs `work` the way the services' writes run, so services called inside join its transaction. */
export function inWriteTransaction<T>(t: TestApp, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  const db = t.app.get(DatabaseContext);
  return t.app.get(WriteTransactions).run(() => work(db.manager));
}
