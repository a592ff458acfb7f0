import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { RedisOutages } from '../../src/common/redis/redis-outages';
import { SharedRedis } from '../../src/common/redis/shared-redis';
import { WebhookQueue } from '../../src/modules/webhooks/webhook-queue';
import { CapturedStream } from '../support/captured-stream';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { FreezingProxy } from '../support/freezing-proxy';
import { dropRedisKeys } from '../support/redis-keys';

interface LogLine {
  level: number;
  context?: string;
  msg: string;
}

/** Resolves once `count()` reaches `atLeast`, checking whenever `events` fire (no fixed wait). */
function reached(count: () => number, atLeast: number, subscribe: (check: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (count() >= atLeast) resolve();
    };
    subscribe(check);
    check();
  });
}

/**
 * Redis gone for a while under an instance that also runs the webhook queue (issue 44): ioredis reports an
 * error at each reconnect attempt, and BullMQ printed each, stack and all, to stderr.
 */
describe('a Redis outage', () => {
  let t: TestApp;
  let proxy: FreezingProxy;
  const logs = new CapturedStream();
  const prefix = `test-${process.pid}-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    proxy = new FreezingProxy('127.0.0.1', 6379);
    const port = await proxy.start();
    t = await createTestApp({
      env: {
        REDIS_URL: `redis://127.0.0.1:${port}`,
        REDIS_KEY_PREFIX: prefix,
        WEBHOOKS_WORKER: 'true',
        LOG_LEVEL: 'info',
        REDIS_COMMAND_TIMEOUT_MS: '2000',
      },
      logDestination: logs,
    });
  });
  afterAll(async () => {
    await t.close();
    await proxy.stop();
    await dropRedisKeys(prefix);
  });

  it('logs one warning when Redis goes and one line when it is back, as JSON, and nothing on stderr', async () => {
    // The queue's own clients open with a first attempt (of a delivery that does not exist: skipped).
    expect(await t.app.get(WebhookQueue).attempt(['00000000-0000-4000-8000-000000000000'])).toEqual(['skipped']);
    const outages = t.app.get(RedisOutages);
    const failed = jest.spyOn(outages, 'failed');
    const stderr = jest.spyOn(process.stderr, 'write');
    const consoleError = jest.spyOn(console, 'error');
    const consoleWarn = jest.spyOn(console, 'warn');
    const linesBefore = logs.lines().length;
    const client = t.app.get(SharedRedis).client!;
    let sharedErrors = 0;
    client.on('error', () => sharedErrors++);
    const queueErrors = () => failed.mock.calls.filter(([name]) => name === 'webhook queue').length;

    proxy.cut();
    // Several reconnect attempts of the shared client and of the queue's clients, each an error.
    await reached(
      () => sharedErrors,
      4,
      (check) => client.on('error', check),
    );
    await reached(queueErrors, 4, (check) =>
      failed.mockImplementation((...args) => {
        RedisOutages.prototype.failed.apply(outages, args);
        check();
      }),
    );
    expect((await t.http.get('/health/ready').expect(200)).body.redis).toEqual({ status: 'down' });
    proxy.restore();
    await t.app.get(SharedRedis).ready();
    await new Promise<void>((resolve) => {
      const recovered = jest.spyOn(outages, 'recovered');
      const check = () => {
        if (!outages.outage) resolve();
      };
      recovered.mockImplementation((name) => {
        RedisOutages.prototype.recovered.call(outages, name);
        check();
      });
      check();
    });
    expect((await t.http.get('/health/ready').expect(200)).body.redis).toEqual({ status: 'up' });

    const lines = logs.lines().slice(linesBefore);
    const parsed = lines.map((line) => JSON.parse(line) as LogLine);
    const redisLines = parsed.filter((line) => line.context === 'Redis');
    expect(redisLines.map((line) => [line.level, line.msg.replace(/\(.*?\)/, '(…)')])).toEqual([
      [40, 'Redis is not reachable (…): serving degraded (per-instance limits, webhook attempts wait) until it is'],
      [30, 'Redis is reachable again'],
    ]);
    expect(parsed.filter((line) => line.level >= 40 && line.context !== 'Redis')).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
    expect(consoleWarn).not.toHaveBeenCalled();
    expect(stderr.mock.calls.map(([chunk]) => String(chunk))).toEqual([]);
    stderr.mockRestore();
    consoleError.mockRestore();
    consoleWarn.mockRestore();
  });

  it('notices that Redis lost its keys (a flush) at its next read, and says so once', async () => {
    const redis = t.app.get(SharedRedis);
    await redis.readKeys([]);
    expect(redis.lostKeysWithin(60_000)).toBe(false);
    const linesBefore = logs.lines().length;
    // This service's keys gone, as in a FLUSHALL (the shared Redis itself is never flushed here).
    await dropRedisKeys(prefix);
    await redis.readKeys([]);
    await redis.readKeys([]);
    expect(redis.lostKeysWithin(60_000)).toBe(true);
    const warnings = logs
      .lines()
      .slice(linesBefore)
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toEqual([expect.stringContaining('Redis lost its keys')]);
  });
});
