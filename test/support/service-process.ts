export { freePort } from './free-port';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// The tests run from the repository root (npm test).
const root = process.cwd();

export interface LogLine {
  pid: number;
  /** pino's level: 50 error, 60 fatal (0 for a line that is not JSON). */
  level: number;
  /** When pino wrote it (ms since the epoch). */
  time: number;
  msg: string;
}

/** The service as `npm start` runs it (compiled), with its JSON log lines collected as they come. */
export class ServiceProcess {
  readonly lines: LogLine[] = [];
  private waiters: { match: (l: LogLine[]) => boolean; resolve: () => void; reject: (e: Error) => void }[] = [];
  private exitCode: number | null | undefined;
  private closed = false;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  /**
   * @param options.fileModesApply when the tests run as root (who may write any file), run the service as root
   *   without the capabilities that override file modes, so a read-only file is read-only to it as it would be
   *   to an operator's service user. (Not as another user: the tree and the Node binary may sit in folders
   *   only root may enter, as CI's copies do.)
   * @param options.entry another build's `main.js` (`copyOfBuild`) instead of this tree's.
   */
  constructor(env: Record<string, string>, options: { fileModesApply?: boolean; entry?: string } = {}) {
    const command = [process.execPath, options.entry ?? join(root, 'dist', 'src', 'main.js')];
    if (options.fileModesApply && process.getuid?.() === 0) {
      const caps = '-dac_override,-dac_read_search,-fowner';
      command.unshift('setpriv', `--bounding-set=${caps}`, `--inh-caps=${caps}`, '--');
    }
    this.child = spawn(command[0], command.slice(1), {
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        this.exitCode = code;
        resolve(code);
      }),
    );
    // A service that exits before the lines a test waits for must fail that test now, saying why, not at
    // the test's time limit.
    this.child.once('close', () => {
      this.closed = true;
      const pending = this.waiters;
      this.waiters = [];
      for (const waiter of pending) waiter.reject(this.exitedEarly());
    });
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      createInterface({ input: stream }).on('line', (text) => {
        try {
          const parsed = JSON.parse(text) as LogLine;
          this.lines.push({ pid: parsed.pid, level: parsed.level, time: parsed.time, msg: parsed.msg });
        } catch {
          this.lines.push({ pid: 0, level: 0, time: Date.now(), msg: text });
        }
        this.waiters = this.waiters.filter((w) => (w.match(this.lines) ? (w.resolve(), false) : true));
      });
    }
  }

  /** Resolves once the lines seen so far satisfy `match` (no time limit of its own: the test's applies). */
  until(match: (lines: LogLine[]) => boolean): Promise<void> {
    if (match(this.lines)) return Promise.resolve();
    if (this.closed) return Promise.reject(this.exitedEarly());
    return new Promise((resolve, reject) => this.waiters.push({ match, resolve, reject }));
  }

  private exitedEarly(): Error {
    const last = this.lines.slice(-15).map((l) => `  ${l.msg}`);
    return new Error(
      `the service exited (code ${String(this.exitCode)}) before the awaited lines:\n${last.join('\n')}`,
    );
  }

  listening(): LogLine[] {
    return this.lines.filter((l) => l.msg.includes(' listening on '));
  }
}

/** Compiles the service unless `dist/` is newer than its sources (as `npm start` does). */
export function buildService(): void {
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-if-needed.cjs')], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
}
