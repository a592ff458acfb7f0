import { buildDocumentsThrough } from './lib/documents-built';
import { measure, type LoadFigures } from './lib/load';
import { seededServer } from './lib/seeded-server';

const NATIVE = '/cal/events/v1';
const ALIAS = '/wp-json/tribe/events/v1';
/** An uncached alias read may cost at most this much of the same native read's server CPU (issue 50). */
const TARGET = 1.1;

/**
 * The TEC alias against `cal/events/v1`, caches off, every request a different query:
 * `npm run bench:alias -- [events=2000]`, SQLite by default, BENCH_DATABASE_URL=mysql://…/empty_db for MySQL.
 * Both dialects' stored bodies are built first (each read once through each); then each route is loaded on
 * the native namespace and on the alias in turn, four rounds each first in turn, 8 connections, and the
 * server's CPU per request is compared: alias ÷ native (target ≤ 1.1).
 */
async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 2_000);
  const seeded = await seededServer(events, { RESPONSE_CACHE_MB: '0' });
  const server = seeded.server;
  try {
    await buildDocumentsThrough(server.url, seeded.databaseUrl, NATIVE, 'native');
    await buildDocumentsThrough(server.url, seeded.databaseUrl, ALIAS, '-tec');
    const day = (i: number) => new Date(Date.UTC(2031, 0, 1 + (i % 365))).toISOString().slice(0, 10);
    let n = 0;
    const routes = [
      { label: 'GET /events (10 per page)', path: (base: string, i: number) => `${base}/events?start_date=${day(i)}` },
      {
        label: 'GET /events?per_page=50',
        path: (base: string, i: number) => `${base}/events?start_date=${day(i)}&per_page=50`,
      },
      {
        label: 'GET /events/{id}',
        path: (base: string, i: number) => `${base}/events/${seeded.firstEventId + (i % events)}`,
      },
    ];
    console.log(`\n${events} events on ${seeded.databaseUrl.split(':')[0]}, caches off, 8 connections`);
    const rows: string[] = [];
    for (const route of routes) {
      const runs: Record<string, LoadFigures[]> = { [NATIVE]: [], [ALIAS]: [] };
      for (let round = 0; round < 4; round++) {
        for (const base of round % 2 === 0 ? [NATIVE, ALIAS] : [ALIAS, NATIVE]) {
          runs[base].push(
            await measure(`${route.label} ${base === NATIVE ? 'native' : 'alias'}`, server.url, {
              headers: { host: 'calendar.test' },
              path: () => route.path(base, n++),
              duration: 5,
              connections: 8,
              cpuOf: { server: server.pid },
            }),
          );
        }
      }
      const cpu = (base: string) => runs[base].reduce((sum, f) => sum + f.cpuMsPerRequest.server, 0) / 4;
      rows.push(
        `${route.label.padEnd(28)} native ${cpu(NATIVE).toFixed(2)} ms   alias ${cpu(ALIAS).toFixed(2)} ms   ` +
          `alias ÷ native ${(cpu(ALIAS) / cpu(NATIVE)).toFixed(2)} (target ≤ ${TARGET})`,
      );
    }
    console.log(`\nserver CPU per request, means of 4 rounds:\n${rows.join('\n')}`);
  } finally {
    await seeded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
