import { measure } from './lib/load';
import { seededServer } from './lib/seeded-server';

/** The reference (The Events Calendar on WordPress, 2,000 events, -c16) on a machine of this kind. */
const REFERENCE = { list: 13.5, single: 28.6 };

/**
 * The same URLs read again and again, as calendar widgets and feed subscriptions do:
 * `npm run bench:hot -- [events=2000]`, SQLite by default, BENCH_DATABASE_URL=mysql://…/empty_db for MySQL.
 * 16 connections, 10 s per route after a warm-up; prints req/s and the ratio to the reference.
 */
async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 2_000);
  const seeded = await seededServer(events);
  const server = seeded.server;
  try {
    const url = `${server.url}/cal/events/v1/events`;
    const list = `${url}?start_date=2031-01-01&end_date=2031-12-31`;
    const single = `${url}/${seeded.firstEventId + Math.floor(events / 2)}`;
    console.log(`\n${events} events on ${seeded.databaseUrl.split(':')[0]}, 16 connections`);
    await measure('warm-up', list, { duration: 3, connections: 16 });
    const l = await measure('GET /events (hot)', list, { connections: 16 });
    const s = await measure('GET /events/{id} (hot)', single, { connections: 16 });
    console.log(
      `\nratio to the reference: list ${(l.requestsPerSecond / REFERENCE.list).toFixed(0)}×, ` +
        `single ${(s.requestsPerSecond / REFERENCE.single).toFixed(0)}× (targets: 1,350 and 2,900 req/s, 100×)`,
    );
  } finally {
    await seeded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
