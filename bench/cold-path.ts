import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { measure, type LoadFigures } from './lib/load';
import { localDatabasePid } from './lib/process-cpu';
import { seedWithProgress } from './lib/seed-with-progress';
import { startServer, waitForHealth } from './lib/server';

const HOST = 'calendar.test';

/** GET with a fixed Host, so both servers write the same URLs into their answers. */
function fetchBytes(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { host: HOST } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    })
      .on('error', reject)
      .end();
  });
}

/**
 * The cold path against its yardstick: `BENCH_DATABASE_URL=mysql://…/empty_db npm run bench:cold -- [events]`.
 * Seeds the database, starts the service with every cache off and the raw `node:http` + `mysql2` baseline
 * (`bench/raw-baseline/`), checks that both answer the same bytes, then loads each route on both with a
 * different query on every request (a one-year window starting on a different day, a different event)
 * in three alternating rounds, and prints requests/s and the ratio service/baseline (target ≥ 0.8).
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
  if (!databaseUrl.startsWith('mysql://')) throw new Error('bench:cold needs BENCH_DATABASE_URL=mysql://…/empty_db');
  const events = Number(process.argv[2] ?? 10_000);
  const seeded = await seedWithProgress(databaseUrl, events);
  const service = await startServer({ DATABASE_URL: databaseUrl, SITE_TIMEZONE: 'UTC', RESPONSE_CACHE_MB: '0' });
  const port = 30000 + (process.pid % 10000);
  const baseline = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'bench/raw-baseline/server.ts'], {
    env: { ...process.env, BASELINE_DATABASE_URL: databaseUrl, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baselineUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baselineUrl, baseline, '/cal/events/v1/events/1', [200, 404]);
    let n = 0;
    const day = (i: number) => new Date(Date.UTC(2031, 0, 1 + (i % 365))).toISOString().slice(0, 10);
    const yearFrom = (i: number) => {
      const start = new Date(Date.UTC(2031, 0, 1 + (i % 365)));
      const end = new Date(Date.UTC(start.getUTCFullYear() + 1, start.getUTCMonth(), start.getUTCDate() - 1));
      return `start_date=${day(i)}&end_date=${end.toISOString().slice(0, 10)}`;
    };
    // BENCH_ONLY=<text>: only the routes whose label holds it (to profile one route).
    const allRoutes: { label: string; path: (i: number) => string }[] = [
      { label: 'GET /events (10 per page)', path: (i) => `/cal/events/v1/events?${yearFrom(i)}` },
      { label: 'GET /events?per_page=50', path: (i) => `/cal/events/v1/events?${yearFrom(i)}&per_page=50` },
      { label: 'GET /events/{id}', path: (i) => `/cal/events/v1/events/${seeded.firstEventId + (i % events)}` },
    ];
    const routes = allRoutes.filter((route) => route.label.includes(process.env.BENCH_ONLY ?? ''));
    for (const route of routes) {
      for (const i of [0, 17, 200]) {
        const [ours, theirs] = await Promise.all([
          fetchBytes(service.url + route.path(i)),
          fetchBytes(baselineUrl + route.path(i)),
        ]);
        if (ours.status !== 200 || ours.body !== theirs.body) {
          throw new Error(`${route.label}: the baseline's answer differs from the service's for ${route.path(i)}`);
        }
      }
    }
    console.log(`\n${events} events; both servers answer the same bytes. Every request a different query.\n`);
    // Three alternating rounds per route, so a drift in the machine's speed touches both servers alike;
    // the ratio is of the rounds' sums.
    const rows: { label: string; raw: number; ours: number; rawCpu: number; oursCpu: number }[] = [];
    const database = localDatabasePid(databaseUrl);
    const cpuOf = (server: string, pid: number) => ({ [server]: pid, ...(database ? { database } : {}) });
    for (const route of routes) {
      const options = { headers: { host: HOST }, path: () => route.path(n++), duration: 5 };
      await measure('warm-up', baselineUrl, { ...options, duration: 2 });
      await measure('warm-up', service.url, { ...options, duration: 2 });
      const raw: LoadFigures[] = [];
      const ours: LoadFigures[] = [];
      for (let round = 0; round < 3; round++) {
        const pair = [
          async () =>
            raw.push(
              await measure(`${route.label} baseline`, baselineUrl, {
                ...options,
                cpuOf: cpuOf('server', baseline.pid ?? 0),
              }),
            ),
          async () =>
            ours.push(
              await measure(`${route.label} service`, service.url, { ...options, cpuOf: cpuOf('server', service.pid) }),
            ),
        ];
        if (round % 2 === 1) pair.reverse();
        for (const run of pair) await run();
      }
      const mean = (figures: LoadFigures[], of: (f: LoadFigures) => number) =>
        figures.reduce((sum, f) => sum + of(f), 0) / figures.length;
      const throughput = (f: LoadFigures) => f.requestsPerSecond;
      const serverCpu = (f: LoadFigures) => f.cpuMsPerRequest.server ?? 0;
      rows.push({
        label: route.label,
        raw: mean(raw, throughput),
        ours: mean(ours, throughput),
        rawCpu: mean(raw, serverCpu),
        oursCpu: mean(ours, serverCpu),
      });
    }
    // The CPU columns: what each server's own process spent per request (the database's is printed per
    // run above); their ratio drifts less with the machine's speed than the throughput's.
    console.log(
      '\nroute                                  baseline   service   ratio (target ≥ 0.8)   CPU ms/request: baseline  service  ratio',
    );
    for (const { label, raw, ours, rawCpu, oursCpu } of rows) {
      console.log(
        `${label.padEnd(38)} ${raw.toFixed(0).padStart(8)} ${ours.toFixed(0).padStart(9)}   ${(ours / raw).toFixed(2).padEnd(22)}` +
          `${rawCpu.toFixed(2).padStart(24)} ${oursCpu.toFixed(2).padStart(8)}  ${(rawCpu / oursCpu).toFixed(2)}`,
      );
    }
  } finally {
    baseline.kill('SIGTERM');
    await service.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
