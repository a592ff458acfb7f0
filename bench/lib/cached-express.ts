import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForHealth } from './server';

/** The headers a recorded answer keeps: what a client reads, not what describes one connection. */
const KEPT = [
  'content-type',
  'etag',
  'cache-control',
  'vary',
  'link',
  'x-wp-total',
  'x-wp-totalpages',
  'last-modified',
];

/**
 * Records the service's answers to `paths` (after a read that fills its cache) and starts the bare Express
 * server of `bench/raw-baseline/cached-express.ts` on them, in its own process, on the port after `port`.
 */
export async function startCachedExpress(
  serviceUrl: string,
  paths: string[],
  port: number,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const recorded: Record<string, { headers: Record<string, string>; body: string }> = {};
  for (const path of paths) {
    const res = await fetch(`${serviceUrl}${path}`);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    const headers: Record<string, string> = {};
    for (const name of KEPT) {
      const value = res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    recorded[path] = { headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') };
  }
  const file = join(tmpdir(), `cal-bench-answers-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify(recorded));
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', 'bench/raw-baseline/cached-express.ts', file],
    { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child);
  return {
    url,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(file, { force: true });
    },
  };
}
