import type { DataSource } from 'typeorm';

/**
 * Runs `work` while this process holds a named lock of the database server (MySQL/MariaDB `GET_LOCK`, on a
 * connection of its own, released with it), so instances that start together wait for the first instead of
 * doing the same work twice. The name is scoped to the database. SQLite is one process: `work` just runs.
 */
export async function withDatabaseLock<T>(
  dataSource: DataSource,
  purpose: string,
  waitSeconds: number,
  work: () => Promise<T>,
): Promise<T> {
  if (dataSource.options.type !== 'mysql') return work();
  const runner = dataSource.createQueryRunner('master');
  await runner.connect();
  const [current] = (await runner.query('SELECT DATABASE() AS name')) as { name: string }[];
  const name = `cal-${purpose}:${current.name}`.slice(0, 64);
  try {
    const [row] = (await runner.query('SELECT GET_LOCK(?, ?) AS got', [name, waitSeconds])) as {
      got: number | string | null;
    }[];
    if (Number(row?.got) !== 1) {
      throw new Error(`another process has held the ${purpose} lock of this database for ${waitSeconds} s`);
    }
    return await work();
  } finally {
    await runner.query('SELECT RELEASE_LOCK(?)', [name]).catch(() => undefined);
    await runner.release();
  }
}
