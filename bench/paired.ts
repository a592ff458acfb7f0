import { createConnection } from 'mysql2/promise';
import { measure, type LoadFigures } from './lib/load';
import { seedWithProgress } from './lib/seed-with-progress';
import { startServer } from './lib/server';

/**
 * This checkout's service against another's on one database, caches off, loaded in turn:
 * `BENCH_DATABASE_URL=mysql://…/db npm run bench:pair -- <other checkout> [rounds]` (a `git worktree` of
 * the commit before, say). The machine's speed drifts by more than a small change moves the figures, so
 * separate runs cannot show it; rounds that alternate the two, each first in turn, can. Prints each
 * round and the means of requests per second and CPU per request. An empty database is seeded with
 * 10,000 events; a seeded one is reused. `BENCH_HOT=1` leaves the response cache on (the hot path: repeated
 * reads answered from memory); without it every read is computed (the cold path). `BENCH_ONLY=<label>` runs
 * one route. Creates (`POST /events`, 8 connections) sign in as the administrator both servers bootstrap.
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
  const other = process.argv[2];
  if (!databaseUrl.startsWith('mysql://') || !other) {
    throw new Error('usage: BENCH_DATABASE_URL=mysql://…/db npm run bench:pair -- <other checkout> [rounds]');
  }
  const rounds = Number(process.argv[3] ?? 4);
  const firstEventId = await seededOrSeed(databaseUrl);
  const [login, password] = ['bench-admin', 'bench password 123456'];
  const env = {
    SITE_TIMEZONE: 'UTC',
    RESPONSE_CACHE_MB: process.env.BENCH_HOT === '1' ? '64' : '0',
    CAL_ADMIN_LOGIN: login,
    CAL_ADMIN_PASSWORD: password,
  };
  const servers = [
    { name: 'this', server: await startServer(env, databaseUrl) },
    { name: 'other', server: await startServer(env, databaseUrl, other) },
  ];
  const auth = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
  // One write on each first: a service that takes writes runs every later request with Node's async hooks on
  // (a transaction's AsyncLocalStorage turns them on for good, about 0.05 ms per read), so a build that happens
  // to have written nothing yet would read cheaper than either does in service.
  for (const { server } of servers) {
    const res = await fetch(`${server.url}/cal/events/v1/events`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Paired warm-up', start_date: '2032-12-01 10:00', end_date: '2032-12-01 11:00' }),
    });
    if (res.status !== 201) throw new Error(`the warm-up write answered ${res.status}`);
  }
  let n = 0;
  const day = (i: number) => new Date(Date.UTC(2031, 0, 1 + (i % 365))).toISOString().slice(0, 10);
  const routes = [
    { label: 'GET /events', path: (i: number) => `/cal/events/v1/events?start_date=${day(i)}&end_date=2031-12-31` },
    {
      label: 'GET /events?per_page=50',
      path: (i: number) => `/cal/events/v1/events?start_date=${day(i)}&end_date=2031-12-31&per_page=50`,
    },
    {
      label: 'GET /events?categories=',
      path: (i: number) =>
        `/cal/events/v1/events?start_date=${day(i)}&end_date=2031-12-31&categories=category-${1 + (i % 20)}`,
    },
    {
      label: 'GET /events (a month)',
      path: (i: number) => {
        const month = String(1 + (i % 12)).padStart(2, '0');
        return `/cal/events/v1/events?start_date=2031-${month}-01&end_date=2031-${month}-28`;
      },
    },
    { label: 'GET /events/{id}', path: (i: number) => `/cal/events/v1/events/${firstEventId + (i % 10_000)}` },
    {
      label: 'POST /events',
      path: () => '/cal/events/v1/events',
      method: 'POST' as const,
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: () => {
        const i = n++;
        return JSON.stringify({
          title: `Paired event ${i}`,
          start_date: `2032-0${1 + (i % 9)}-1${i % 10} 19:00:00`,
          end_date: `2032-0${1 + (i % 9)}-1${i % 10} 22:00:00`,
          venue: { venue: `Paired Hall ${i % 20}`, city: 'Berlin' },
          categories: [`Paired category ${i % 10}`],
          tags: [`paired-tag-${i % 30}`],
        });
      },
    },
  ].filter((route) => route.label === (process.env.BENCH_ONLY ?? route.label));
  try {
    for (const route of routes) {
      const write = 'method' in route;
      const options = {
        path: () => route.path(n++),
        duration: 5,
        connections: write ? 8 : 16,
        ...(write ? { method: route.method, headers: route.headers, body: route.body } : {}),
      };
      for (const { server } of servers) await measure('warm-up', server.url, { ...options, duration: 2 });
      const runs: Record<string, LoadFigures[]> = { this: [], other: [] };
      for (let round = 0; round < rounds; round++) {
        for (const { name, server } of round % 2 === 0 ? servers : [...servers].reverse()) {
          runs[name].push(
            await measure(`${route.label} ${name}`, server.url, { ...options, cpuOf: { server: server.pid } }),
          );
        }
      }
      const mean = (name: string, of: (f: LoadFigures) => number) =>
        runs[name].reduce((sum, f) => sum + of(f), 0) / runs[name].length;
      const [rps, cpu] = [(f: LoadFigures) => f.requestsPerSecond, (f: LoadFigures) => f.cpuMsPerRequest.server ?? 0];
      console.log(
        `\n${route.label}: this ${mean('this', rps).toFixed(0)} req/s, ${mean('this', cpu).toFixed(3)} ms CPU; ` +
          `other ${mean('other', rps).toFixed(0)} req/s, ${mean('other', cpu).toFixed(3)} ms CPU; ` +
          `CPU this/other ${(mean('this', cpu) / mean('other', cpu)).toFixed(3)}\n`,
      );
    }
  } finally {
    for (const { server } of servers) await server.stop();
  }
}

/** The first event's id: of the database as a seed left it, or after seeding it. */
async function seededOrSeed(databaseUrl: string): Promise<number> {
  const connection = await createConnection(databaseUrl).catch(() => null);
  const rows = await connection
    ?.query("SELECT MIN(id) AS id FROM posts WHERE type = 'cal_event'")
    .then(([result]) => result as { id: number | null }[])
    .catch(() => null);
  await connection?.end();
  const seeded = rows?.[0]?.id;
  return seeded ?? (await seedWithProgress(databaseUrl, 10_000)).firstEventId;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
