import { measure } from './lib/load';
import { seededServer } from './lib/seeded-server';

/**
 * The cold path: load on the main event routes over a seeded database with every cache off
 * (`RESPONSE_CACHE_MB=0`), so each request does all its work: `npm run bench:events -- 10000`.
 * `bench:hot` measures the same routes with the caches on.
 * SQLite (a fresh temporary file) by default; set BENCH_DATABASE_URL=mysql://…/empty_db for MySQL/MariaDB.
 * Prints requests/s and latency percentiles per route; 10 connections, 10 s each, after a warm-up.
 */
async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 10_000);
  const seeded = await seededServer(events, { RESPONSE_CACHE_MB: '0' });
  const server = seeded.server;
  try {
    const url = `${server.url}/cal/events/v1/events`;
    // The default window starts "yesterday": pin the dates inside the seeded years instead.
    const window = 'start_date=2031-01-01&end_date=2031-12-31';
    console.log(`\n${events} events on ${seeded.databaseUrl.split(':')[0]}`);
    await measure('warm-up', `${url}?${window}`, { duration: 3 });
    await measure('GET /events (10 per page)', `${url}?${window}`);
    await measure('GET /events?per_page=50', `${url}?${window}&per_page=50`);
    await measure(
      'GET /events?categories=…&search=jazz',
      `${url}?${window}&categories=${seeded.categorySlugs[3]}&search=jazz`,
    );
    await measure('GET /events?page=20', `${url}?${window}&page=20`);
    await measure('GET /events/{id}', `${url}/${seeded.firstEventId + Math.floor(events / 2)}`);
  } finally {
    await seeded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
