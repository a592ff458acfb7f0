import { availableParallelism, loadavg } from 'node:os';
import { expect } from '@jest/globals';
import type { TestApp } from './create-test-app';

/** How long the quiet probe before the work asks `/health`, to learn what this machine's answers take now. */
const QUIET_MS = 1000;
/** The bound on an idle machine: `/health` answers within a second throughout the work. */
const IDLE_BOUND_MS = 1000;

interface Answer {
  at: number;
  ms: number;
}

async function healthAnswers(app: TestApp, keepGoing: () => boolean, since: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  while (keepGoing()) {
    const start = performance.now();
    const res = await app.http.get('/health');
    answers.push({ at: Math.round(start - since), ms: performance.now() - start });
    expect(res.status).toBe(200);
  }
  return answers;
}

/**
 * How many times slower than idle this machine runs a thread now: its one-minute load over its cores. On a
 * machine loaded at four times its cores a step that holds the loop 200 ms idle holds it about a second, as
 * does a garbage collection of the test process's own heap, which is also the service's.
 */
function loadFactor(): number {
  return Math.max(1, loadavg()[0] / availableParallelism());
}

/**
 * How many times slower than its own CPU time this process runs now: wall time over CPU time of a short
 * busy loop. The one-minute load lags a load that has just begun (another spec file starting beside this
 * one); this measures the share of a core the process gets at this moment.
 */
function cpuShareFactor(cpuMs = 30): number {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  let used = 0;
  while (used < cpuMs * 1000) {
    const { user, system } = process.cpuUsage(cpuStart);
    used = user + system;
  }
  return Math.max(1, (performance.now() - wallStart) / cpuMs);
}

/**
 * Runs `work` while `/health` is asked again and again, one request after another, and then expects every
 * answer to have been a 200 within a second (issue 43): the work never held the event loop that answers
 * requests for that long. On a loaded machine the bound grows with the load (the one-minute load over the
 * cores, or the share of a core this process gets now, whichever says slower) and with what `/health` takes
 * there anyway (five times the slowest answer of a quiet second just before), so the check measures the
 * work, not the machine.
 */
export async function whileHealthAnswers<T>(app: TestApp, work: () => Promise<T>): Promise<T> {
  const since = performance.now();
  const quiet = await healthAnswers(app, () => performance.now() < since + QUIET_MS, since);
  const quietSlowest = Math.max(...quiet.map((a) => a.ms));
  const slowdown = cpuShareFactor();
  let done = false;
  const watch = healthAnswers(app, () => !done, since);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    // The work's own failure says more than a late answer; the watch still ends before the test does.
    done = true;
    await watch.catch(() => undefined);
    throw error;
  }
  done = true;
  const answers = await watch;
  const load = Math.max(loadFactor(), slowdown);
  const bound = Math.max(IDLE_BOUND_MS * load, 5 * quietSlowest);
  expect(answers.length).toBeGreaterThan(0);
  const late = answers.filter((a) => a.ms >= bound).map((a) => `${Math.round(a.ms)} ms at ${a.at} ms`);
  if (late.length > 0) {
    throw new Error(
      `/health answered late while the work ran: ${late.join(', ')} (bound ${Math.round(bound)} ms: ` +
        `load ×${load.toFixed(1)}, quiet slowest ${Math.round(quietSlowest)} ms, ${answers.length} answers)`,
    );
  }
  return result;
}
