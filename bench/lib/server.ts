import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BenchServer {
  url: string;
  databaseUrl: string;
  /** The server process, for its memory (`/proc/<pid>/status`). */
  pid: number;
  stop(): Promise<void>;
}

/** Polls `path` until it answers one of `statuses` (the service's liveness route by default). */
export async function waitForHealth(
  url: string,
  child: ChildProcess,
  path = '/health',
  statuses: number[] = [200],
): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}${path}`);
      if (statuses.includes(res.status)) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become healthy in 30 s');
}

/**
 * Starts the service in its own process (so the load generator does not share its event loop), on
 * `DATABASE_URL` when given as BENCH_DATABASE_URL, else on a fresh SQLite file.
 */
export async function startServer(
  env: Record<string, string> = {},
  database?: string,
  /** Another checkout whose service to start (bench:pair), on the next port. */
  checkout?: string,
): Promise<BenchServer> {
  // Below 32768: Linux hands out 32768–60999 to outgoing connections, and a listener cannot bind a port one holds.
  const port = 20000 + (process.pid % 4000) + (checkout ? 1 : 0);
  const file = join(tmpdir(), `cal-bench-${randomBytes(4).toString('hex')}.sqlite`);
  const databaseUrl = database ?? process.env.BENCH_DATABASE_URL ?? `sqlite:${file}`;
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (`npm run bench:profile`).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  // The compiled service, as `npm start` and the image run it: ts-node would keep the TypeScript compiler
  // in the process (tens of MB of RSS) and in its profiles.
  const build = spawnSync(process.execPath, ['scripts/build-if-needed.cjs'], { stdio: 'inherit', cwd: checkout });
  if (build.status !== 0) throw new Error('the build failed');
  const child = spawn(process.execPath, [...profile, 'dist/src/main.js'], {
    cwd: checkout,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child);
  return {
    url,
    databaseUrl,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    },
  };
}
