import cluster, { type Worker } from 'node:cluster';
import type { Logger as PinoLogger } from 'pino';
import { applicationModules } from '../extension-modules';
import { validateEnvironment } from '../config/env.schema';
import { MigrationCommands } from '../database/migration-commands';
import { allMigrations } from '../database/module-migrations';
import { derivedStoresOf } from '../database/derived-stores';
import { restartDelayMs } from './web-concurrency';

/** A worker that dies sooner than this after its start counts as crashing (restarts slow down). */
const STABLE_AFTER_MS = 10_000;

const silentProgress = () => ({ advance: () => undefined, stop: () => undefined });

/**
 * `WEB_CONCURRENCY=N`: this process applies the migrations once, then forks N workers that share the
 * port (node:cluster hands each connection to one of them) and restarts any that dies, later and later
 * if it keeps dying at start. SIGTERM/SIGINT are passed on; each worker drains its requests
 * (`closeGracefully`) and the primary exits when all have. What workers must share beyond the database
 * (login limits, revoked credentials) needs `REDIS_URL`, as separate instances do (scaling.md).
 */
export async function runClusterPrimary(count: number, logger: PinoLogger): Promise<void> {
  const env = validateEnvironment(process.env);
  if (env.DB_MIGRATIONS_RUN) {
    const modules = await applicationModules(env.CAL_EXTENSIONS);
    const migrations = new MigrationCommands(env.DATABASE_URL, allMigrations(modules), derivedStoresOf(modules));
    try {
      const applied = await migrations.run(silentProgress);
      if (applied.length > 0) logger.info(`applied ${applied.length} migration(s) before starting the workers`);
      if (migrations.filledByRun.length > 0) logger.info(`filled derived data: ${migrations.filledByRun.join(', ')}`);
    } finally {
      await migrations.close();
    }
  }
  let stopping = false;
  const crashes = new Map<number, number>();
  const fork = (slot: number): void => {
    const started = Date.now();
    // Workers skip the migrations this process applied; `slot` names them in the logs.
    const worker: Worker = cluster.fork({ DB_MIGRATIONS_RUN: 'false', CAL_WORKER_SLOT: String(slot) });
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      const inARow = Date.now() - started < STABLE_AFTER_MS ? (crashes.get(slot) ?? 0) + 1 : 0;
      crashes.set(slot, inARow);
      const delay = restartDelayMs(inARow);
      logger.error(`worker ${slot} exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
      setTimeout(() => fork(slot), delay);
    });
  };
  for (let slot = 1; slot <= count; slot++) fork(slot);
  logger.info(`cluster: ${count} worker processes (WEB_CONCURRENCY)`);

  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received; stopping ${count} workers`);
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    let left = workers.length;
    if (left === 0) process.exit(0);
    for (const worker of workers) {
      worker.once('exit', () => {
        if (--left === 0) process.exit(0);
      });
      worker.process.kill(signal);
    }
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
