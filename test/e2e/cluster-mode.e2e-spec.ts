import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// The tests run from the repository root (npm test).
const root = process.cwd();

interface LogLine {
  pid: number;
  msg: string;
}

/** The service as `npm start` runs it (compiled), with its JSON log lines collected as they come. */
class ServiceProcess {
  readonly lines: LogLine[] = [];
  private waiters: { match: (l: LogLine[]) => boolean; resolve: () => void }[] = [];
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], {
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      createInterface({ input: stream }).on('line', (text) => {
        try {
          const parsed = JSON.parse(text) as LogLine;
          this.lines.push({ pid: parsed.pid, msg: parsed.msg });
        } catch {
          this.lines.push({ pid: 0, msg: text });
        }
        this.waiters = this.waiters.filter((w) => (w.match(this.lines) ? (w.resolve(), false) : true));
      });
    }
  }

  /** Resolves once the lines seen so far satisfy `match` (no time limit of its own: the test's applies). */
  until(match: (lines: LogLine[]) => boolean): Promise<void> {
    if (match(this.lines)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  listening(): LogLine[] {
    return this.lines.filter((l) => l.msg.includes(' listening on '));
  }
}

/**
 * `WEB_CONCURRENCY`: N worker processes behind one port on MySQL/MariaDB, a dead worker replaced, and all
 * of them stopped by one SIGTERM; on SQLite one process, with a warning.
 */
describe('cluster mode (WEB_CONCURRENCY)', () => {
  let database: TestDatabase;
  let service: ServiceProcess | null = null;
  // Below 32768: Linux hands out 32768–60999 to outgoing connections, and a listener cannot bind a port one holds.
  const port = String(29500 + (process.pid % 500));

  beforeAll(async () => {
    const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-if-needed.cjs')], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
    database = await createTestDatabase();
  }, 120_000);
  afterAll(async () => {
    service?.child.kill('SIGKILL');
    await database.drop();
  });

  it('runs the workers, replaces one that dies, and stops them all on SIGTERM', async () => {
    service = new ServiceProcess({
      WEB_CONCURRENCY: '2',
      PORT: port,
      DATABASE_URL: database.url,
      WEBHOOKS_WORKER: 'false',
    });
    if (database.kind === 'sqlite') {
      await service.until((lines) => lines.some((l) => l.msg.includes(' listening on ')));
      expect(service.lines.some((l) => l.msg.includes('WEB_CONCURRENCY is ignored on SQLite'))).toBe(true);
      expect(service.listening().map((l) => l.pid)).toEqual([service.child.pid]);
    } else {
      await service.until(() => service!.listening().length === 2);
      const workers = service.listening().map((l) => l.pid);
      expect(new Set(workers).size).toBe(2);
      expect(workers).not.toContain(service.child.pid);
      const res = await fetch(`http://127.0.0.1:${port}/cal/events/v1/events`);
      expect(res.status).toBe(200);
      process.kill(workers[0], 'SIGKILL');
      await service.until(() => service!.listening().length === 3);
      expect(service.lines.some((l) => /worker [12] exited \(SIGKILL\); restarting/.test(l.msg))).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
    }
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    service = null;
  }, 120_000);
});
