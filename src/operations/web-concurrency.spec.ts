import { describe, expect, it } from '@jest/globals';
import { restartDelayMs, workerCount } from './web-concurrency';

describe('WEB_CONCURRENCY', () => {
  it('is one process when unset or empty', () => {
    expect(workerCount(undefined, 8)).toBe(1);
    expect(workerCount(' ', 8)).toBe(1);
  });

  it('takes a number, or one per core with auto', () => {
    expect(workerCount('3', 8)).toBe(3);
    expect(workerCount('auto', 2)).toBe(2);
    expect(workerCount('AUTO', 500)).toBe(64);
  });

  it.each(['0', '-2', '1.5', 'many', '65'])('refuses %s, naming the variable', (raw) => {
    expect(() => workerCount(raw, 2)).toThrow(/WEB_CONCURRENCY/);
  });

  it('restarts a crashing worker later and later, at most every 30 s', () => {
    expect(restartDelayMs(0)).toBe(0);
    expect(restartDelayMs(1)).toBe(500);
    expect(restartDelayMs(3)).toBe(2000);
    expect(restartDelayMs(20)).toBe(30_000);
  });
});
