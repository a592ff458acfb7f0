import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { measure } from './lib/load';
import { rssMb } from './lib/process-memory';
import { seedWithProgress } from './lib/seed-with-progress';
import { sequentialP50 } from './lib/sequential-latency';
import { startServer, type BenchServer } from './lib/server';

const WINDOW = 'start_date=2031-01-01&end_date=2031-12-31';
/** Memory as deployed: the Dockerfile's heap cap and allocator setting, the default response cache. */
const AS_THE_IMAGE_RUNS = { NODE_OPTIONS: '--max-old-space-size=160', MALLOC_ARENA_MAX: '2' };
/** Settings to compare under BENCH_MEMORY_ONLY, when given to the bench. */
const fromEnv = (): Record<string, string> =>
  Object.fromEntries(
    ['NODE_OPTIONS', 'MALLOC_ARENA_MAX', 'RESPONSE_CACHE_MB'].flatMap((name) => {
      const value = process.env[`SERVER_${name}`];
      return value === undefined ? [] : [[name, value]];
    }),
  );
const EVENTS = '/cal/events/v1/events';

/** Runs statements on the MySQL server of BENCH_DATABASE_URL, outside any database. */
async function onServer(base: string, statements: string[]): Promise<void> {
  const url = new URL(base);
  url.pathname = '';
  const connection = await createConnection(url.toString());
  for (const statement of statements) await connection.query(statement);
  await connection.end();
}

/** A fresh database for one size: `<name>_<size>` beside BENCH_DATABASE_URL's, or a new SQLite file. */
async function freshDatabase(size: number): Promise<string> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return `sqlite:${join(tmpdir(), `cal-scale-${size}-${process.pid}.sqlite`)}`;
  const url = new URL(base);
  const name = `${url.pathname.slice(1)}_${size}`;
  await onServer(base, [`DROP DATABASE IF EXISTS \`${name}\``, `CREATE DATABASE \`${name}\``]);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops what `freshDatabase` made (BENCH_KEEP=1 keeps it, to look at query plans). */
async function dropDatabase(databaseUrl: string): Promise<void> {
  if (process.env.BENCH_KEEP === '1') return;
  if (databaseUrl.startsWith('sqlite:')) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(databaseUrl.slice('sqlite:'.length) + suffix, { force: true });
    return;
  }
  await onServer(databaseUrl, [`DROP DATABASE IF EXISTS \`${new URL(databaseUrl).pathname.slice(1)}\``]);
}

async function totalOf(server: BenchServer, query: string): Promise<number> {
  const res = await fetch(`${server.url}${EVENTS}?${query}`);
  return Number(res.headers.get('x-tec-total') ?? res.headers.get('x-wp-total') ?? 0);
}

/** p50 at one connection of each filtered list route; a deep page is page 1000 or the last full one. */
async function latencies(server: BenchServer): Promise<Map<string, number>> {
  // The last full page: a last page of one event would compare a smaller answer with a full one.
  const lastPage = Math.floor((await totalOf(server, WINDOW)) / 10);
  const lastSearchPage = Math.floor((await totalOf(server, `${WINDOW}&search=jazz`)) / 10);
  const routes: [string, string][] = [
    ['list (one-year window)', WINDOW],
    [`deep page (page ${Math.min(1000, lastPage)})`, `${WINDOW}&page=${Math.min(1000, lastPage)}`],
    ['categories=category-3', `${WINDOW}&categories=category-3`],
    ['venue=1', `${WINDOW}&venue=1`],
    ['search=jazz', `${WINDOW}&search=jazz`],
    [
      `search=jazz deep page (page ${Math.min(1000, lastSearchPage)})`,
      `${WINDOW}&search=jazz&page=${Math.min(1000, lastSearchPage)}`,
    ],
  ];
  const p50 = new Map<string, number>();
  for (const [label, query] of routes) {
    const path = () => `${EVENTS}?${query}`;
    await measure('warm-up', server.url, { connections: 1, duration: 2, path });
    const median = await sequentialP50(server.url, path, 8);
    console.log(`${label.padEnd(40)} p50 ${median.toFixed(3)} ms (one connection, one request at a time)`);
    p50.set(label.replace(/ \(page \d+\)/, ''), median);
  }
  return p50;
}

/**
 * Three consecutive 60 s loads of varied list and single reads at 16 connections (most answers differ, so
 * the response cache fills to its bound); RSS sampled throughout.
 */
async function memory(server: BenchServer, firstEventId: number, events: number): Promise<void> {
  let n = 0;
  const path = () => {
    const i = n++;
    const month = String(1 + (i % 12)).padStart(2, '0');
    const kinds = [
      `${EVENTS}?start_date=2031-${month}-01&end_date=2031-12-31&page=${1 + (i % 50)}`,
      `${EVENTS}?start_date=2031-${month}-01&end_date=2031-12-31&per_page=50`,
      `${EVENTS}/${firstEventId + ((i * 7919) % events)}`,
      `${EVENTS}?${WINDOW}&categories=category-${1 + (i % 20)}&page=${1 + (i % 5)}`,
    ];
    return kinds[i % kinds.length];
  };
  const rows: string[] = [];
  for (let round = 1; round <= 3; round++) {
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 500);
    const figures = await measure(`memory load ${round}`, server.url, { connections: 16, duration: 60, path });
    clearInterval(sampler);
    rows.push(
      `load ${round}: ${figures.requestsPerSecond} req/s, non-2xx ${figures.non2xx}, peak RSS ${peak} MB, after ${rssMb(server.pid)} MB`,
    );
  }
  console.log(`\nmemory at ${events} events (target: peak ≤ 250 MB, no growth from load to load)`);
  for (const row of rows) console.log(`  ${row}`);
}

/**
 * Flat in data size: `npm run bench:scale -- [small] [large]` (10,000 and 1,000,000 by default), on
 * MariaDB/MySQL when BENCH_DATABASE_URL names a database (two databases beside it are created and
 * dropped; BENCH_KEEP=1 keeps them), else on SQLite files. Seeds each size, starts the service with its caches off, and prints
 * the p50 at one connection of the list routes and the ratio large/small (target ≤ 1.3); then, on the
 * large set, RSS across three 60 s loads with the default configuration (BENCH_MEMORY=0 skips them;
 * BENCH_REUSE=1 measures the latencies again on databases a BENCH_KEEP=1 run left). The seeded events span four
 * years from 2030, so the lists read a one-year window of 2031 rather than the default from today.
 */
async function main(): Promise<void> {
  const small = Number(process.argv[2] ?? 10_000);
  const large = Number(process.argv[3] ?? 1_000_000);
  if (process.env.BENCH_MEMORY_ONLY === '1') return memoryOnly(large);
  const figures: Map<string, number>[] = [];
  for (const size of [small, large]) {
    if (process.env.BENCH_REUSE === '1') {
      figures.push(await latenciesOnKept(size));
      continue;
    }
    const databaseUrl = await freshDatabase(size);
    const seeded = await seedWithProgress(databaseUrl, size);
    try {
      const cold = await startServer({ SITE_TIMEZONE: 'UTC', RESPONSE_CACHE_MB: '0' }, databaseUrl);
      try {
        console.log(`\n${size} events`);
        figures.push(await latencies(cold));
      } finally {
        await cold.stop();
      }
      if (size === large && process.env.BENCH_MEMORY !== '0') {
        const server = await startServer({ SITE_TIMEZONE: 'UTC', ...AS_THE_IMAGE_RUNS }, databaseUrl);
        try {
          await memory(server, seeded.firstEventId, size);
        } finally {
          await server.stop();
        }
      }
    } finally {
      await dropDatabase(databaseUrl);
    }
  }
  console.log(
    `\nroute (p50 ms at -c1)           ${String(small).padStart(9)} ${String(large).padStart(9)}   ratio (≤ 1.3)`,
  );
  for (const [label, at] of figures[0]) {
    const big = figures[1].get(label) ?? NaN;
    console.log(
      `${label.padEnd(32)} ${at.toFixed(3).padStart(9)} ${big.toFixed(3).padStart(9)}   ${(big / at).toFixed(2)}`,
    );
  }
}

/** The kept `<name>_<size>` database beside BENCH_DATABASE_URL's (a run with BENCH_KEEP=1 left it). */
function keptDatabase(size: number, purpose: string): string {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) throw new Error(`${purpose} needs BENCH_DATABASE_URL (MySQL) and a kept <name>_<size> database`);
  const url = new URL(base);
  url.pathname = `/${url.pathname.slice(1)}_${size}`;
  return url.toString();
}

/** BENCH_REUSE=1: the latencies again on the databases a BENCH_KEEP=1 run left, without seeding. */
async function latenciesOnKept(size: number): Promise<Map<string, number>> {
  const cold = await startServer({ SITE_TIMEZONE: 'UTC', RESPONSE_CACHE_MB: '0' }, keptDatabase(size, 'BENCH_REUSE'));
  try {
    console.log(`\n${size} events (kept database)`);
    return await latencies(cold);
  } finally {
    await cold.stop();
  }
}

/**
 * BENCH_MEMORY_ONLY=1: only the three memory loads, on the large database a run with BENCH_KEEP=1 left
 * behind (MySQL), as the image runs the service unless SERVER_NODE_OPTIONS, SERVER_MALLOC_ARENA_MAX or
 * SERVER_RESPONSE_CACHE_MB say otherwise, to compare settings without seeding again.
 */
async function memoryOnly(size: number): Promise<void> {
  const url = keptDatabase(size, 'BENCH_MEMORY_ONLY');
  const connection = await createConnection(url);
  const [rows] = await connection.query("SELECT MIN(id) AS id FROM posts WHERE type = 'cal_event'");
  await connection.end();
  const firstEventId = Number((rows as { id: number }[])[0]?.id);
  const server = await startServer({ SITE_TIMEZONE: 'UTC', ...AS_THE_IMAGE_RUNS, ...fromEnv() }, url);
  try {
    await memory(server, firstEventId, size);
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
