import { startCachedExpress } from './lib/cached-express';
import { measure } from './lib/load';
import { seededServer } from './lib/seeded-server';

/** The reference (The Events Calendar on WordPress, 2,000 events, -c16) on a machine of this kind. */
const REFERENCE = { list: 13.5, single: 28.6 };

/** A hot read's floor against the bare Express server that returns the same bytes from memory (issue 50). */
const BARE_SHARE_TARGET = 0.75;

/**
 * The same URLs read again and again, as calendar widgets and feed subscriptions do:
 * `npm run bench:hot -- [events=2000]`, SQLite by default, BENCH_DATABASE_URL=mysql://…/empty_db for MySQL.
 * 16 connections, 10 s per route after a warm-up; prints req/s, the ratio to the reference, and the share of
 * a bare Express server's req/s that returns the same cached bytes from memory (bench/raw-baseline), each
 * route measured on the service and on that server one after the other.
 */
async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 2_000);
  const seeded = await seededServer(events);
  const server = seeded.server;
  try {
    const base = '/cal/events/v1/events';
    const list = `${base}?start_date=2031-01-01&end_date=2031-12-31`;
    const single = `${base}/${seeded.firstEventId + Math.floor(events / 2)}`;
    console.log(`\n${events} events on ${seeded.databaseUrl.split(':')[0]}, 16 connections`);
    await measure('warm-up', `${server.url}${list}`, { duration: 3, connections: 16 });
    const bare = await startCachedExpress(server.url, [list, single], Number(new URL(server.url).port) + 2);
    try {
      const cpuOf = { service: server.pid, bare: bare.pid };
      const l = await measure('GET /events (hot)', `${server.url}${list}`, { connections: 16, cpuOf });
      const lb = await measure('  bare Express, same bytes', `${bare.url}${list}`, { connections: 16, cpuOf });
      const s = await measure('GET /events/{id} (hot)', `${server.url}${single}`, { connections: 16, cpuOf });
      const sb = await measure('  bare Express, same bytes', `${bare.url}${single}`, { connections: 16, cpuOf });
      console.log(
        `\nratio to the reference: list ${(l.requestsPerSecond / REFERENCE.list).toFixed(0)}×, ` +
          `single ${(s.requestsPerSecond / REFERENCE.single).toFixed(0)}× (targets: 1,350 and 2,900 req/s, 100×)`,
      );
      const share = (service: number, limit: number) => (service / Math.max(1, limit)).toFixed(2);
      console.log(
        `share of bare Express: list ${share(l.requestsPerSecond, lb.requestsPerSecond)}, ` +
          `single ${share(s.requestsPerSecond, sb.requestsPerSecond)} (target ≥ ${BARE_SHARE_TARGET})`,
      );
    } finally {
      await bare.stop();
    }
  } finally {
    await seeded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
