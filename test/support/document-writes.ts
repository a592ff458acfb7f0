/**
 * Counts every row written to the stored documents' tables from now on, by any process on the database (a
 * trigger per table and action): what "reads stay reads" is measured by, in the e2e spec and `bench:rolling`.
 */
export async function countDocumentWrites(
  query: (sql: string) => Promise<unknown>,
  kind: 'sqlite' | 'mysql',
): Promise<() => Promise<number>> {
  await query('CREATE TABLE document_writes (n INTEGER NOT NULL)');
  await query('INSERT INTO document_writes (n) VALUES (0)');
  for (const table of ['event_document_bodies', 'event_documents']) {
    for (const action of ['INSERT', 'UPDATE', 'DELETE']) {
      const name = `count_${table}_${action.toLowerCase()}`;
      await query(
        kind === 'mysql'
          ? `CREATE TRIGGER ${name} AFTER ${action} ON ${table} FOR EACH ROW UPDATE document_writes SET n = n + 1`
          : `CREATE TRIGGER ${name} AFTER ${action} ON ${table} BEGIN UPDATE document_writes SET n = n + 1; END`,
      );
    }
  }
  return async () => {
    const result = (await query('SELECT n FROM document_writes')) as { n: number }[] | [{ n: number }[], unknown];
    const rows = Array.isArray(result[0]) ? result[0] : (result as { n: number }[]);
    return Number(rows[0].n);
  };
}
