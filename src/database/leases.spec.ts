import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Leases } from './leases';

/** A `Leases` whose database is two mocks: whether a take or renewal succeeds, and the give-up. */
function leasesWith(takes: boolean) {
  const leases = Object.create(Leases.prototype) as Leases;
  const acquire = jest.fn((_name: string, _ms: number) => Promise.resolve(takes));
  const release = jest.fn((_name: string) => Promise.resolve());
  Object.assign(leases, { acquire, release });
  return { leases, acquire, release };
}

describe('Leases.hold', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('renews the lease every third of its length while the work runs, and gives it up after', async () => {
    const { leases, acquire, release } = leasesWith(true);
    let finish!: (value: string) => void;
    const held = leases.hold('job', 90_000, () => new Promise<string>((resolve) => (finish = resolve)));
    await jest.advanceTimersByTimeAsync(0);
    expect(acquire).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(30_000 * 4);
    expect(acquire).toHaveBeenCalledTimes(5);
    expect(acquire.mock.calls.every(([name, ms]) => name === 'job' && ms === 90_000)).toBe(true);
    expect(release).not.toHaveBeenCalled();
    finish('done');
    await expect(held).resolves.toBe('done');
    expect(release).toHaveBeenCalledWith('job');
    await jest.advanceTimersByTimeAsync(30_000 * 3);
    expect(acquire).toHaveBeenCalledTimes(5);
  });

  it('gives the lease up when the work fails, and keeps renewing through a failed renewal', async () => {
    const { leases, acquire, release } = leasesWith(true);
    let fail!: (error: Error) => void;
    const held = leases.hold('job', 30_000, () => new Promise<string>((_resolve, reject) => (fail = reject)));
    await jest.advanceTimersByTimeAsync(0);
    acquire.mockImplementationOnce(() => Promise.reject(new Error('database away')));
    await jest.advanceTimersByTimeAsync(10_000 * 2);
    expect(acquire).toHaveBeenCalledTimes(3);
    fail(new Error('work failed'));
    await expect(held).rejects.toThrow('work failed');
    expect(release).toHaveBeenCalledWith('job');
  });

  it('runs nothing, and gives nothing up, when another process holds the lease', async () => {
    const { leases, release } = leasesWith(false);
    const work = jest.fn(() => Promise.resolve('ran'));
    await expect(leases.hold('job', 30_000, work)).resolves.toBeNull();
    expect(work).not.toHaveBeenCalled();
    expect(release).not.toHaveBeenCalled();
  });
});
