import dataSource from '../ormconfig';

/** Reverts every applied migration, newest first (CI uses it to prove each `down()` undoes its `up()`). */
async function main(): Promise<void> {
  await dataSource.initialize();
  try {
    const rows: { n: number | string }[] = await dataSource.query('SELECT COUNT(*) AS n FROM schema_migrations');
    const applied = Number(rows[0]?.n ?? 0);
    for (let i = 0; i < applied; i++) await dataSource.undoLastMigration({ transaction: 'each' });
    process.stdout.write(`reverted ${applied} migration(s)\n`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
