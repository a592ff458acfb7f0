import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { BackoffLimiter } from './backoff-limiter';

describe('BackoffLimiter', () => {
  let limiter: BackoffLimiter;

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    limiter = new BackoffLimiter({
      failures: 3,
      windowSeconds: 600,
      lockoutSeconds: 30,
      maxLockoutSeconds: 100,
      keyPrefix: 'test',
    });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  const advance = (seconds: number) => jest.advanceTimersByTime(seconds * 1000);

  it('allows the limit of misses, then locks for the base time', async () => {
    expect(await limiter.recordMiss('k')).toBe(0);
    expect(await limiter.recordMiss('k')).toBe(0);
    expect(await limiter.retryAfterSeconds('k')).toBe(0);
    expect(await limiter.recordMiss('k')).toBe(30);
    expect(await limiter.retryAfterSeconds('k')).toBe(30);
    advance(20);
    expect(await limiter.retryAfterSeconds('k')).toBe(10);
    advance(10);
    expect(await limiter.retryAfterSeconds('k')).toBe(0);
  });

  it('doubles each further lockout, up to the ceiling, one miss each', async () => {
    for (let i = 0; i < 3; i++) await limiter.recordMiss('k');
    const lockouts: number[] = [];
    for (let i = 0; i < 4; i++) {
      advance(await limiter.retryAfterSeconds('k'));
      lockouts.push(await limiter.recordMiss('k'));
    }
    expect(lockouts).toEqual([60, 100, 100, 100]);
  });

  it('keeps keys apart', async () => {
    for (let i = 0; i < 3; i++) await limiter.recordMiss('a');
    expect(await limiter.retryAfterSeconds('a')).toBe(30);
    expect(await limiter.retryAfterSeconds('b')).toBe(0);
  });

  it('locks at the first miss when asked to, and forgets everything on success', async () => {
    expect(await limiter.recordMiss('k', true)).toBe(30);
    await limiter.forget('k');
    expect(await limiter.retryAfterSeconds('k')).toBe(0);
    expect(await limiter.recordMiss('k')).toBe(0);
  });
});
