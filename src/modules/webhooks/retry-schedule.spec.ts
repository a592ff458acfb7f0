import { describe, expect, it } from '@jest/globals';
import { MAX_RETRY_DELAY_MS, retryDelayMs } from './retry-schedule';

describe('webhook retry schedule', () => {
  it('doubles from the base, with jitter between half and all of the step', () => {
    expect(retryDelayMs(1, 30_000, () => 0)).toBe(15_000);
    expect(retryDelayMs(1, 30_000, () => 1)).toBe(30_000);
    expect(retryDelayMs(3, 30_000, () => 1)).toBe(120_000);
  });

  it('never waits more than an hour, however many failures', () => {
    expect(retryDelayMs(50, 30_000, () => 1)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(5000, 30_000, () => 0.5)).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
  });

  it('keeps retrying for a day in about two dozen attempts with the default base', () => {
    let elapsed = 0;
    let attempts = 0;
    while (elapsed < 24 * 3_600_000) elapsed += retryDelayMs(++attempts, 30_000, () => 1);
    expect(attempts).toBeGreaterThan(15);
    expect(attempts).toBeLessThan(40);
  });
});
