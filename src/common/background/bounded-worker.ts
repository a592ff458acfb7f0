import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';

/** Why a job in a worker thread did not give its result. */
export type BudgetFailure = 'memory' | 'time' | 'cancelled' | 'crashed' | 'failed';

export class BoundedJobError extends Error {
  constructor(
    readonly kind: BudgetFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface JobBudget {
  /** The worker's heap (old generation), in MB: past it the worker is stopped, never the process. */
  memoryMb: number;
  timeoutMs: number;
  /** Stops the job at once (the subscription was deleted). */
  signal?: AbortSignal;
  /** Memory the input holds that moves to the worker instead of being copied (then unusable here). */
  transfer?: ArrayBuffer[];
}

/**
 * The worker's code: loads the job's module (compiled JavaScript, or the TypeScript source through
 * ts-node where the service itself runs from source, as under Jest) and posts what its `run` gives.
 */
const WORKER_CODE = `
const { workerData, parentPort } = require('node:worker_threads');
if (workerData.typescript) require('ts-node').register({ transpileOnly: true });
Promise.resolve()
  .then(() => require(workerData.file).run(workerData.input))
  .then(
    (result) => parentPort.postMessage({ ok: true, result }),
    (error) => parentPort.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
`;

/** `src/` of this build: the compiled folder beside this file, or the sources when they run as they are. */
function findSourceRoot(): { root: string; typescript: boolean } {
  // Jest runs the sources as ES modules, where there is no __dirname; it runs them from the project's root.
  if (typeof __dirname !== 'string') return { root: resolve(process.cwd(), 'src'), typescript: true };
  return { root: resolve(__dirname, '../..'), typescript: !existsSync(join(__dirname, 'bounded-worker.js')) };
}

let sourceRoot: { root: string; typescript: boolean } | undefined;

/**
 * Runs `run(input)` of the module at `job` (a path below `src/`, without extension) in a worker thread of
 * its own, bounded in heap and time and stoppable by a signal: untrusted or large input (a subscribed
 * feed) is parsed there, so that what it costs never holds the event loop that answers requests, and a
 * job that would exhaust its heap fails alone instead of taking the process down. The input and the
 * result cross by structured clone: plain data only.
 */
export function runBounded<I, O>(job: string, input: I, budget: JobBudget): Promise<O> {
  sourceRoot ??= findSourceRoot();
  const { root, typescript } = sourceRoot;
  const file = join(root, `${job}.${typescript ? 'ts' : 'js'}`);
  return new Promise<O>((done, fail) => {
    if (budget.signal?.aborted) return fail(new BoundedJobError('cancelled', 'cancelled before it started'));
    const worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: { file, input, typescript },
      transferList: budget.transfer,
      resourceLimits: {
        maxOldGenerationSizeMb: budget.memoryMb,
        maxYoungGenerationSizeMb: Math.max(4, Math.min(32, Math.floor(budget.memoryMb / 4))),
      },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      budget.signal?.removeEventListener('abort', onAbort);
      outcome();
      void worker.terminate();
    };
    const stop = (kind: BudgetFailure, message: string) => settle(() => fail(new BoundedJobError(kind, message)));
    const onAbort = () => stop('cancelled', 'cancelled');
    const timer = setTimeout(
      () => stop('time', `took longer than ${Math.round(budget.timeoutMs / 1000)} s`),
      budget.timeoutMs,
    );
    timer.unref();
    budget.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: { ok: true; result: O } | { ok: false; message: string }) =>
      message.ok ? settle(() => done(message.result)) : stop('failed', message.message),
    );
    worker.on('error', (error: Error & { code?: string }) =>
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? stop('memory', `needed more than its ${budget.memoryMb} MB of memory`)
        : stop('crashed', error.message),
    );
    worker.on('exit', (code) => stop('crashed', `its worker stopped (exit code ${code})`));
  });
}
