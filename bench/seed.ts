import { seedWithProgress } from './lib/seed-with-progress';

/**
 * Seeds a database for load tests: `npm run bench:seed -- 100000` (events; default 10,000) into
 * BENCH_DATABASE_URL (default sqlite:./data/bench.sqlite). The database must be empty.
 */
async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 10_000);
  if (!Number.isInteger(events) || events < 1 || events > 1_000_000) throw new Error('events must be 1–1,000,000');
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'sqlite:./data/bench.sqlite';
  const started = Date.now();
  await seedWithProgress(databaseUrl, events);
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${databaseUrl}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
