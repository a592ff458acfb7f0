import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';

const HOST = 'calendar.test';

/**
 * Reads every event once through `base` (a namespace: `/cal/events/v1`, or the TEC alias), so that the service
 * builds that dialect's stored bodies, and waits until each event has a body of a format ending as `suffix`
 * says (`native`: no dialect suffix; `-tec`: the alias's) at its current generation. Benches measure reads in
 * the steady state, where each event was read once since it last changed.
 */
export async function buildDocumentsThrough(
  serviceUrl: string,
  databaseUrl: string,
  base: string,
  suffix: 'native' | '-tec',
): Promise<void> {
  const started = Date.now();
  const all = `${base}/events?start_date=2000-01-01&end_date=2099-12-31&per_page=50`;
  const pages = Number(
    (await fetch(`${serviceUrl}${all}`, { headers: { host: HOST } })).headers.get('x-wp-totalpages'),
  );
  for (let page = 1; page <= pages; page++)
    await fetch(`${serviceUrl}${all}&page=${page}`, { headers: { host: HOST } });
  const dataSource = new DataSource(buildDataSourceOptions({ url: databaseUrl }));
  await dataSource.initialize();
  const format = suffix === 'native' ? "b.format NOT LIKE '%-tec'" : "b.format LIKE '%-tec'";
  try {
    for (;;) {
      const [row] = await dataSource.query<{ n: number | string }[]>(
        `SELECT COUNT(*) AS n FROM event_documents e
          WHERE NOT EXISTS (SELECT 1 FROM event_document_bodies b
                             WHERE b.post_id = e.post_id AND b.generation = e.generation AND ${format})`,
      );
      const left = Number(row.n);
      if (left === 0) break;
      if (Date.now() - started > 600_000) throw new Error(`${left} event documents still not built after 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await dataSource.destroy();
  }
  console.log(`event documents (${base}) built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
