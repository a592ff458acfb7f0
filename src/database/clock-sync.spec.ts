import { describe, expect, it } from '@jest/globals';
import { Clock } from '../common/dates/clock';
import type { AppConfig } from '../config/app-config';
import { ClockSync } from './clock-sync';
import type { DatabaseClock } from './database-clock';

function setUp(databaseAheadMs: { value: number }, settings: Partial<AppConfig['clockSync']> = {}) {
  const clock = new Clock();
  const databaseClock = { nowMs: () => Promise.resolve(Date.now() + databaseAheadMs.value) } as DatabaseClock;
  const config = {
    clockSync: { enabled: true, checkMs: 60_000, maxSkewMs: 2000, offsetMs: 0, ...settings },
  } as AppConfig;
  return { clock, sync: new ClockSync(clock, databaseClock, config) };
}

describe('ClockSync', () => {
  it('corrects the clock by what the database is ahead or behind, and says so past the bound', async () => {
    const ahead = { value: 90_000 };
    const { clock, sync } = setUp(ahead);
    await sync.check();
    expect(Math.abs(clock.now().getTime() - (Date.now() + 90_000))).toBeLessThan(200);
    expect(sync.report).toMatchObject({ status: 'skewed', max_skew_ms: 2000 });
    ahead.value = -500;
    await sync.check();
    expect(Math.abs(clock.now().getTime() - (Date.now() - 500))).toBeLessThan(200);
    expect(sync.report).toMatchObject({ status: 'ok' });
  });

  it('measures against the simulated skew of the process clock, cancelling it', async () => {
    const { clock, sync } = setUp({ value: 0 }, { offsetMs: 90_000 });
    clock.simulateSkew(90_000);
    expect(clock.now().getTime() - Date.now()).toBeGreaterThanOrEqual(89_000);
    await sync.check();
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(200);
    expect(sync.report?.skew_ms).toBeLessThan(-89_000);
  });

  it('keeps the last correction while the database does not answer, and reports nothing when off', async () => {
    const ahead = { value: 5000 };
    const { clock, sync } = setUp(ahead);
    await sync.check();
    (sync as unknown as { databaseClock: DatabaseClock }).databaseClock.nowMs = () => Promise.reject(new Error('down'));
    await sync.check();
    expect(Math.abs(clock.now().getTime() - (Date.now() + 5000))).toBeLessThan(200);
    expect(setUp(ahead, { enabled: false }).sync.report).toBeUndefined();
    expect(setUp(ahead).sync.report).toMatchObject({ status: 'unknown', skew_ms: null });
  });
});
