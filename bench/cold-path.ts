import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { buildDocumentsThrough } from './lib/documents-built';
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

/** A yardstick server of `bench/raw-baseline/` in its own process, on its own port. */
function startYardstick(script: string, databaseUrl: string, port: number) {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', script], {
    env: { ...process.env, BASELINE_DATABASE_URL: databaseUrl, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/**
 * The cold path against its yardsticks: `BENCH_DATABASE_URL=mysql://…/empty_db npm run bench:cold -- [events]`.
 * Seeds the database, starts the service with every cache off, the raw `node:http` + `mysql2` baseline
 * and the same routes behind a bare Nest application (`bench/raw-baseline/`), checks that all three answer
 * the same bytes, then loads each route on each with a different query on every request (a one-year
 * window starting on a different day, a different event) in three rounds of changing order, and prints
 * requests/s, CPU per request and the ratios: service/baseline (target ≥ 0.8), and the floor/baseline,
 * the best the service could reach while it runs on NestJS and Express.
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
  if (!databaseUrl.startsWith('mysql://')) throw new Error('bench:cold needs BENCH_DATABASE_URL=mysql://…/empty_db');
  const events = Number(process.argv[2] ?? 10_000);
  const seeded = await seedWithProgress(databaseUrl, events);
  const service = await startServer({ DATABASE_URL: databaseUrl, SITE_TIMEZONE: 'UTC', RESPONSE_CACHE_MB: '0' });
  // Below 32768: Linux hands out 32768–60999 to outgoing connections, and a listener cannot bind a port one holds.
  const port = 26000 + (process.pid % 1000) * 2;
  const baseline = startYardstick('bench/raw-baseline/server.ts', databaseUrl, port);
  const floor = startYardstick('bench/raw-baseline/nest-floor.ts', databaseUrl, port + 1);
  try {
    await waitForHealth(baseline.url, baseline.child, '/cal/events/v1/events/1', [200, 404]);
    await waitForHealth(floor.url, floor.child, '/cal/events/v1/events/1', [200, 404]);
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
    const servers = [
      { name: 'baseline', url: baseline.url, pid: baseline.child.pid ?? 0 },
      { name: 'floor', url: floor.url, pid: floor.child.pid ?? 0 },
      { name: 'service', url: service.url, pid: service.pid },
    ];
    await buildDocumentsThrough(service.url, databaseUrl, '/cal/events/v1', 'native');
    for (const route of routes) {
      for (const i of [0, 17, 200]) {
        const [ours, ...theirs] = await Promise.all(
          [service.url, baseline.url, floor.url].map((url) => fetchBytes(url + route.path(i))),
        );
        if (ours.status !== 200 || theirs.some((answer) => answer.body !== ours.body)) {
          throw new Error(`${route.label}: a yardstick's answer differs from the service's for ${route.path(i)}`);
        }
      }
    }
    console.log(`\n${events} events; the three servers answer the same bytes. Every request a different query.\n`);
    // Three rounds per route, each server first once, so a drift in the machine's speed touches all alike;
    // the figures are the rounds' means.
    const database = localDatabasePid(databaseUrl);
    const rows: { label: string; figures: Record<string, { rps: number; cpu: number }> }[] = [];
    for (const route of routes) {
      const options = { headers: { host: HOST }, path: () => route.path(n++), duration: 5 };
      for (const server of servers) await measure('warm-up', server.url, { ...options, duration: 2 });
      const runs: Record<string, LoadFigures[]> = { baseline: [], floor: [], service: [] };
      for (let round = 0; round < 3; round++) {
        for (const server of [...servers.slice(round), ...servers.slice(0, round)]) {
          runs[server.name].push(
            await measure(`${route.label} ${server.name}`, server.url, {
              ...options,
              cpuOf: { server: server.pid, ...(database ? { database } : {}) },
            }),
          );
        }
      }
      const mean = (figures: LoadFigures[], of: (f: LoadFigures) => number) =>
        figures.reduce((sum, f) => sum + of(f), 0) / figures.length;
      rows.push({
        label: route.label,
        figures: Object.fromEntries(
          servers.map(({ name }) => [
            name,
            {
              rps: mean(runs[name], (f) => f.requestsPerSecond),
              cpu: mean(runs[name], (f) => f.cpuMsPerRequest.server ?? 0),
            },
          ]),
        ),
      });
    }
    // CPU: what each server's own process spent per request (the database's is printed per run above);
    // its ratios drift less with the machine's speed than the throughput's.
    console.log(
      '\nroute                        req/s: baseline  floor  service   service/baseline (≥ 0.8)  floor/baseline' +
        '   CPU ms/request: baseline  floor  service   ratios: service  floor',
    );
    for (const { label, figures } of rows) {
      const { baseline: b, floor: f, service: s } = figures;
      console.log(
        `${label.padEnd(28)} ${b.rps.toFixed(0).padStart(16)} ${f.rps.toFixed(0).padStart(6)} ${s.rps.toFixed(0).padStart(8)}` +
          `   ${(s.rps / b.rps).toFixed(2).padEnd(26)}${(f.rps / b.rps).toFixed(2).padEnd(15)}` +
          `${b.cpu.toFixed(2).padStart(25)} ${f.cpu.toFixed(2).padStart(6)} ${s.cpu.toFixed(2).padStart(8)}` +
          `   ${(b.cpu / s.cpu).toFixed(2).padStart(15)} ${(b.cpu / f.cpu).toFixed(2).padStart(6)}`,
      );
    }
  } finally {
    baseline.child.kill('SIGTERM');
    floor.child.kill('SIGTERM');
    await service.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
