import type { Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import type { DestinationStream } from 'pino';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { applicationModules } from '../../src/extension-modules';
import { configureApp } from '../../src/app.setup';
import { Clock } from '../../src/common/dates/clock';
import { DatabaseClock } from '../../src/database/database-clock';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  app: NestExpressApplication;
  http: ReturnType<typeof request>;
  dataSource: DataSource;
  database: TestDatabase;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment values for this app, over the defaults below. */
  env?: Record<string, string>;
  /** Extra controllers, for tests of the request pipeline itself. */
  controllers?: Type[];
  /** Reuse this database (and leave it in place on close) instead of making a fresh one. */
  database?: TestDatabase;
  /** Pin the service's clock, for tests whose expectations depend on "now". */
  now?: Date;
  /** The service's clock itself, for tests that move time on ({@link SteppingClock}). */
  clock?: Clock;
  /** The resource modules to run instead of the calendar's (a team's own module, or one left out). */
  modules?: readonly Type[];
  /**
   * With `now` or `clock`, the database's clock (leases, the scheduled-post sweep) follows the service's
   * too, so a test can move "now" for both; true leaves it on the database server's real clock.
   */
  realDatabaseClock?: boolean;
  /** Where the service's log lines go (tests that read the logs; LOG_LEVEL must be set in `env`). */
  logDestination?: DestinationStream;
}

/** A clock that starts at the real time and moves only when the test says so. */
export class SteppingClock extends Clock {
  private offsetMs = 0;

  override now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Moves "now" on to the start of the next whole second (times in the database have whole seconds). */
  nextSecond(): void {
    this.offsetMs += 1000 - (this.now().getTime() % 1000);
  }

  /** Moves "now" on by `ms` (a retention period, say). */
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** Boots the real AppModule through the same `configureApp()` as `main.ts`, on a fresh database. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase({ migrated: true }));
  const builder = Test.createTestingModule({
    imports: [
      AppModule.forRoot({
        ignoreEnvFile: true,
        // The webhook worker's and the import scheduler's background rounds stay off unless a test asks for
        // them (it drives them with `WebhookWorker.runOnce()`, `ImportScheduler.runRound()`): they would add
        // queries to tests that count them.
        overrides: {
          DATABASE_URL: database.url,
          LOG_LEVEL: 'silent',
          WEBHOOKS_WORKER: 'false',
          IMPORTS_SCHEDULER: 'false',
          // A pinned or stepped clock is the test's own: nothing to correct it by.
          ...(options.now || options.clock ? { CLOCK_SYNC: 'false' } : {}),
          ...(options.env ?? {}),
        },
        modules: options.modules,
      }),
    ],
    controllers: options.controllers ?? [],
  });
  let testClock: Clock | null = null;
  if (options.now) {
    const fixed = options.now;
    testClock = Object.assign(new Clock(), { now: () => new Date(fixed) });
    builder.overrideProvider(Clock).useValue(testClock);
  }
  if (options.clock) {
    testClock = options.clock;
    builder.overrideProvider(Clock).useValue(options.clock);
  }
  if (testClock && !options.realDatabaseClock) {
    const followed = testClock;
    builder.overrideProvider(DatabaseClock).useValue({
      nowSqlUtc: () => Promise.resolve(followed.nowSqlUtc()),
      nowMs: () => Promise.resolve(followed.now().getTime()),
    });
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false });
  configureApp(app, { logDestination: options.logDestination });
  try {
    await app.init();
  } catch (error) {
    // A start-up that fails must not leave its database connections open behind it.
    await app.close().catch(() => undefined);
    throw error;
  }
  return {
    app,
    http: request(app.getHttpServer()),
    dataSource: app.get(DataSource),
    database,
    close: async () => {
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}

/**
 * The shipped examples as CAL_EXTENSIONS names them: their compiled modules, which the specs' own imports of
 * `examples/…` also load (test/runner/native-transform.cjs), so a spec and the app share one class each.
 */
export const EXAMPLE_EXTENSIONS = [
  'speakers/speakers',
  'tickets/tickets',
  'audiences/audiences',
  'duration/duration',
  'all-day/all-day',
  'capacity/capacity',
]
  .map((name) => `dist/examples/${name}.module.js`)
  .join(',');

/**
 * The modules a sweep covers: the calendar's and every extension, as a deployment runs them (CAL_EXTENSIONS
 * when set, else the shipped examples), so a route sweep meets an extension's routes too.
 */
export async function registeredModules(): Promise<Type[]> {
  return applicationModules(process.env.CAL_EXTENSIONS || EXAMPLE_EXTENSIONS);
}
