import { DataSource } from 'typeorm';

/**
 * SQLite: a second connection to the same file, read-only, for what is read outside write transactions. In
 * WAL mode it reads the last commit while a write transaction is open on the main connection, so a long
 * write may give the event loop away between its steps (`DatabaseContext.yieldTurn`) and nobody sees its
 * rows before it commits. None for an in-memory database (a second connection would open another, empty
 * one) or another database: null.
 */
export async function openSqliteReads(main: DataSource): Promise<DataSource | null> {
  const options = main.options;
  if (options.type !== 'better-sqlite3' || options.database === ':memory:' || options.database === '') return null;
  const reads = new DataSource({
    type: 'better-sqlite3',
    driver: options.driver as unknown,
    database: options.database,
    readonly: true,
    fileMustExist: true,
    // The main connection set the file to WAL; a read-only one may not set a journal mode.
    enableWAL: false,
    // A WAL reader waits only while the main connection recovers the log after a crash.
    timeout: options.timeout,
    entities: main.entityMetadatas.map((metadata) => metadata.target),
    synchronize: false,
    migrationsRun: false,
    logging: options.logging,
    logger: options.logger,
  });
  return reads.initialize();
}
