import { describe, expect, it } from '@jest/globals';
import { BoundedJobError, runBounded } from './bounded-worker';

const JOB = '../test/support/jobs/budget-probe.job';
type Mode = 'echo' | 'spin' | 'fill' | 'throw' | 'exit';
const probe = (mode: Mode, budget: { memoryMb?: number; timeoutMs?: number; signal?: AbortSignal } = {}) =>
  runBounded<{ mode: Mode; value?: unknown }, unknown>(
    JOB,
    { mode, value: { a: [1, 'two'] } },
    { memoryMb: budget.memoryMb ?? 256, timeoutMs: budget.timeoutMs ?? 120_000, signal: budget.signal },
  );
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof BoundedJobError ? error.kind : String(error)),
  );

/** A hang guard, not a speed target: each worker loads its job through ts-node, slow on a busy machine. */
const GUARD_MS = 120_000;

describe('runBounded', () => {
  it(
    'gives the job’s result, crossed by structured clone',
    async () => {
      await expect(probe('echo')).resolves.toEqual({ echoed: { a: [1, 'two'] } });
    },
    GUARD_MS,
  );

  it(
    'stops a job past its heap as memory, and one past its time as time, leaving this process whole',
    async () => {
      expect(await failure(probe('fill', { memoryMb: 160 }))).toBe('memory');
      expect(await failure(probe('spin', { timeoutMs: 1000 }))).toBe('time');
      await expect(probe('echo')).resolves.toEqual({ echoed: { a: [1, 'two'] } });
    },
    GUARD_MS,
  );

  it(
    'stops a job when its signal fires, and refuses to start one whose signal has fired',
    async () => {
      const control = new AbortController();
      const running = failure(probe('spin', { signal: control.signal }));
      control.abort();
      expect(await running).toBe('cancelled');
      expect(await failure(probe('echo', { signal: control.signal }))).toBe('cancelled');
    },
    GUARD_MS,
  );

  it(
    'tells a job that failed from a worker that stopped',
    async () => {
      await expect(probe('throw')).rejects.toThrow('the job gave up');
      expect(await failure(probe('throw'))).toBe('failed');
      expect(await failure(probe('exit'))).toBe('crashed');
    },
    GUARD_MS,
  );
});
