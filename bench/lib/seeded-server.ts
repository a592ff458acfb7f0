import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedWithProgress } from './seed-with-progress';
import { startServer, type BenchServer } from './server';

/**
 * Seeds `events` events into BENCH_DATABASE_URL (an empty database) or a fresh temporary SQLite file,
 * then starts the service on it with the site zone UTC and `env` on top; `stop` also removes the SQLite file.
 */
export async function seededServer(
  events: number,
  env: Record<string, string> = {},
): Promise<{
  server: BenchServer;
  databaseUrl: string;
  firstEventId: number;
  categorySlugs: string[];
  stop(): Promise<void>;
}> {
  const file = join(tmpdir(), `cal-bench-${randomBytes(4).toString('hex')}.sqlite`);
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? `sqlite:${file}`;
  const seeded = await seedWithProgress(databaseUrl, events);
  const server = await startServer({ SITE_TIMEZONE: 'UTC', ...env }, databaseUrl);
  const stop = async () => {
    await server.stop();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  };
  return { server, databaseUrl, ...seeded, stop };
}
