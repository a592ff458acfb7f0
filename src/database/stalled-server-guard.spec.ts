import { describe, expect, it, jest } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { StalledServerError, StalledServerGuard } from './stalled-server-guard';

type Callback = (error: unknown, ...rest: unknown[]) => void;

/** A pooled mysql2 connection whose statements the test answers. */
class FakeConnection {
  readonly statements: Callback[] = [];
  destroyed = false;
  released = false;
  query(_sql: unknown, callback: Callback): void {
    this.statements.push(callback);
  }
  destroy(): void {
    this.destroyed = true;
  }
  release(): void {
    this.released = true;
  }
  on(): this {
    return this;
  }
}

const timeout = () => Object.assign(new Error('Query inactivity timeout'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT' });

/** TypeORM's MySQL driver as far as the guard uses it: the pool's connections come when the test says. */
function fakeDriver() {
  const pending: { resolve: (c: FakeConnection) => void; reject: (e: unknown) => void }[] = [];
  const server = { answers: true };
  const driver = {
    options: { type: 'mysql' },
    mysql: {
      createConnection: () => ({
        query: (_options: unknown, callback: Callback) => callback(server.answers ? null : new Error('refused')),
        destroy: () => undefined,
        on: () => undefined,
      }),
    },
    createConnectionOptions: () => ({}),
    prepareDbConnection: (connection: FakeConnection) => connection,
    obtainMasterConnection: () =>
      new Promise<FakeConnection>((resolve, reject) => pending.push({ resolve, reject })).then((c) =>
        driver.prepareDbConnection(c),
      ),
  };
  const guard = new StalledServerGuard(
    { driver } as unknown as DataSource,
    { databaseQueryTimeoutSeconds: 1 } as AppConfig,
  );
  guard.onModuleInit();
  return { driver, guard, pending, server };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('StalledServerGuard', () => {
  it('drops a connection whose statement timed out, and lets requests on while the server answers a probe', async () => {
    const { driver, guard, pending } = fakeDriver();
    const obtained = driver.obtainMasterConnection();
    const connection = new FakeConnection();
    pending[0].resolve(connection);
    const pooled = await obtained;
    const callback = jest.fn<Callback>();
    pooled.query('SELECT slow', callback);
    connection.statements[0](timeout());
    expect(callback).toHaveBeenCalledWith(expect.objectContaining({ code: 'PROTOCOL_SEQUENCE_TIMEOUT' }));
    expect(connection.destroyed).toBe(true);
    await settle();
    expect(guard.stalled).toBe(false);
    const next = driver.obtainMasterConnection();
    pending[1].resolve(new FakeConnection());
    await expect(next).resolves.toBeInstanceOf(FakeConnection);
    guard.onApplicationShutdown();
  });

  it('keeps a statement that failed otherwise on its connection', async () => {
    const { driver, pending } = fakeDriver();
    const obtained = driver.obtainMasterConnection();
    const connection = new FakeConnection();
    pending[0].resolve(connection);
    (await obtained).query('SELECT 1', () => undefined);
    connection.statements[0](Object.assign(new Error('duplicate'), { code: 'ER_DUP_ENTRY' }));
    expect(connection.destroyed).toBe(false);
  });

  it('turns waiting and new requests away once the server misses a probe, and lets them on once it answers', async () => {
    const { driver, guard, pending, server } = fakeDriver();
    const first = driver.obtainMasterConnection();
    const waiting = driver.obtainMasterConnection();
    const connection = new FakeConnection();
    pending[0].resolve(connection);
    (await first).query('SELECT 1', () => undefined);
    server.answers = false;
    connection.statements[0](timeout());
    await expect(waiting).rejects.toBeInstanceOf(StalledServerError);
    expect(guard.stalled).toBe(true);
    await expect(driver.obtainMasterConnection()).rejects.toBeInstanceOf(StalledServerError);
    expect(pending).toHaveLength(2);
    // The connection that comes for the request turned away goes back to the pool.
    const late = new FakeConnection();
    pending[1].resolve(late);
    await settle();
    expect(late.released).toBe(true);
    server.answers = true;
    await expect(guard.probe()).resolves.toBe(true);
    expect(guard.stalled).toBe(false);
    const again = driver.obtainMasterConnection();
    pending[2].resolve(new FakeConnection());
    await expect(again).resolves.toBeInstanceOf(FakeConnection);
    guard.onApplicationShutdown();
  });

  it('probes after a connection that did not open in time', async () => {
    const { driver, guard, pending, server } = fakeDriver();
    server.answers = false;
    const obtained = driver.obtainMasterConnection();
    pending[0].reject(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }));
    await expect(obtained).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    await settle();
    expect(guard.stalled).toBe(true);
    guard.onApplicationShutdown();
  });
});
