import 'reflect-metadata';
import { Logger, type CallHandler, type NestInterceptor } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { finalize, type Observable } from 'rxjs';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { createRootLogger, PinoNestLogger } from './common/logging/logger';
import { AppConfig } from './config/app-config';
import { earlyLogFormat, earlyLogLevel, validateEnvironment } from './config/env.schema';
import { applicationModules } from './extension-modules';
import cluster from 'node:cluster';
import type { Server } from 'node:net';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { readSettings, reportStartupFailure } from './operations/startup-failure';
import { parseDatabaseUrl } from './database/database-url';
import { runClusterPrimary } from './operations/cluster-primary';
import { workerCount } from './operations/web-concurrency';
import { StartupSummary } from './operations/startup-summary';
import { claimSqliteFile } from './operations/sqlite-server-lock';

const DRAIN_TIMEOUT_MS = 10_000;

/** Counts handlers still running, including those whose client has already hung up. */
class RunningHandlers implements NestInterceptor {
  count = 0;

  intercept(_context: unknown, next: CallHandler): Observable<unknown> {
    this.count++;
    return next.handle().pipe(finalize(() => this.count--));
  }
}

async function settled(running: RunningHandlers, deadline: number): Promise<void> {
  while (running.count > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
}

/**
 * Stops in the order that loses no request: refuse new connections, let open connections and running
 * handlers finish (up to 10 s in all), then close the application (database pool last). Nest's own
 * shutdown hooks would close the pool while requests are still running.
 */
function closeGracefully(app: NestExpressApplication): void {
  const running = new RunningHandlers();
  app.useGlobalInterceptors(running);
  let closing = false;
  const stop = (signal: string): void => {
    if (closing) return;
    closing = true;
    Logger.log(`${signal} received; draining requests`, 'Shutdown');
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    const server = app.getHttpServer();
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, DRAIN_TIMEOUT_MS).unref());
    void Promise.race([drained, timeout])
      .then(() => settled(running, deadline))
      .then(() => app.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/**
 * JSON from the first line: until the configuration is read, lines go through a logger at `LOG_LEVEL`
 * (or info); a start-up that fails (bad configuration, database unreachable) is one `fatal` line and
 * exit code 1, never coloured text or a core dump.
 */
async function bootstrap(): Promise<void> {
  const early = createRootLogger(
    earlyLogLevel(process.env.LOG_LEVEL),
    undefined,
    earlyLogFormat(process.env.LOG_FORMAT),
  );
  let app: NestExpressApplication | undefined;
  try {
    const settings = validateEnvironment(process.env);
    const database = parseDatabaseUrl(settings.DATABASE_URL);
    // One server per SQLite file: a second one is refused before it touches the file (sqlite-server-lock.ts).
    if (database.kind === 'sqlite' && database.file !== ':memory:') {
      claimSqliteFile(database.file, (message) => early.warn(message));
    }
    // The calendar's modules and the deployment's extensions (CAL_EXTENSIONS), in every worker alike.
    const modules = await applicationModules(settings.CAL_EXTENSIONS);
    app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ modules }), {
      bodyParser: false,
      // Lines as they happen: a start-up waiting for its database says so while it waits, not after.
      bufferLogs: false,
      abortOnError: false,
      logger: new PinoNestLogger(early),
    });
    configureApp(app);
    closeGracefully(app);
    const config = app.get(AppConfig);
    await app.listen(config.port, config.host);
    // The port it got: PORT=0 asks the system for a free one.
    const address = (app.getHttpServer() as Server).address();
    const port = typeof address === 'object' && address !== null ? address.port : config.port;
    await app.get(StartupSummary).log({ host: config.host, port });
  } catch (error) {
    reportStartupFailure(error, early);
    await app?.close().catch(() => undefined);
    process.exit(1);
  }
}

/**
 * One process, or with `WEB_CONCURRENCY` above 1 a cluster primary and its workers. SQLite stays in one
 * process whatever the setting: its single writer does not span processes (a warning says so).
 */
async function start(): Promise<void> {
  // The primary reads the settings before Nest does: `.env` as the config module reads it (real variables win).
  if (existsSync('.env')) process.loadEnvFile('.env');
  const early = createRootLogger(
    earlyLogLevel(process.env.LOG_LEVEL),
    undefined,
    earlyLogFormat(process.env.LOG_FORMAT),
  );
  if (!cluster.isPrimary) return bootstrap();
  let count: number;
  try {
    // Before Nest: bad settings are reported once, as settings, not as a failure inside the module tree.
    const settings = readSettings(process.env, early);
    count = workerCount(process.env.WEB_CONCURRENCY, availableParallelism());
    if (count > 1 && parseDatabaseUrl(settings.DATABASE_URL).kind === 'sqlite') {
      early.warn('WEB_CONCURRENCY is ignored on SQLite (one writer per database file): running one process');
      count = 1;
    }
  } catch (error) {
    reportStartupFailure(error, early);
    process.exit(1);
  }
  if (count === 1) return bootstrap();
  await runClusterPrimary(count, early).catch((error: unknown) => {
    reportStartupFailure(error, early);
    process.exit(1);
  });
}

void start();
