import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { RedisOutages } from '../../../common/redis/redis-outages';
import { AppConfig } from '../../../config/app-config';

const QUEUE = 'import-runs';
/** How this queue's clients are named in the outage log. */
const CLIENT = 'import queue';
/** Runs one instance carries out at once; the others wait in the queue for any instance. */
const PARALLEL = 2;
/** How long a shutdown waits for the queue's clients to close before it cuts their connections. */
const CLOSE_WAIT_MS = 2000;

/** A run recorded in `import_runs`, to be carried out by whichever instance takes it. */
export interface RunJob {
  subscription: number;
  run: number;
}

/**
 * Import runs on a BullMQ queue in Redis (issue 49), when `REDIS_URL` is set: every instance with
 * `IMPORTS_WORKER` takes runs from it. A run's job is locked by the instance carrying it out and the lock is
 * renewed while it goes on; when that instance dies, the lock lapses within `IMPORTS_RUN_LOCK_SECONDS`, the
 * job is found stalled and another instance takes it up and goes on with the same run (its records already
 * written are matched, not written twice). A job that stalls a third time fails: its run is marked
 * `crashed`, and its source is not run again unchanged. The subscription's lease keeps one run at a time
 * whatever the queue does. Without Redis, runs go on in the process that started them.
 */
@Injectable()
export class ImportQueue implements OnApplicationShutdown {
  private readonly connections: Redis[] = [];
  private queue: Queue<RunJob> | null = null;
  private worker: Worker<RunJob> | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly outages: RedisOutages,
  ) {}

  get enabled(): boolean {
    return this.config.redis !== null;
  }

  /** How long a dead instance's run waits before another takes it up. */
  get lockMs(): number {
    return this.config.imports.runLockMs;
  }

  /** Takes runs from the queue in this process; `work` throws to have the run tried again a little later. */
  consume(work: (job: RunJob) => Promise<void>, failed: (job: RunJob, reason: string) => Promise<void>): void {
    if (!this.enabled || this.worker) return;
    this.worker = new Worker<RunJob>(QUEUE, (job: Job<RunJob>) => work(job.data), {
      connection: this.connection(),
      prefix: this.config.redis!.prefix,
      concurrency: PARALLEL,
      lockDuration: this.lockMs,
      stalledInterval: this.lockMs,
      // An instance silent past its lock under a heavy load is found stalled too: a run is given up only when
      // that happens a third time.
      maxStalledCount: 2,
    });
    this.worker.on('error', (error) => this.outages.failed(CLIENT, error));
    this.worker.on('failed', (job, error) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1))
        void failed(job.data, error.message).catch(() => undefined);
      else if (job && /stalled/i.test(error.message)) void failed(job.data, error.message).catch(() => undefined);
    });
  }

  /** Whether a run's job is waiting or going on (false when the queue has none: lost, or ended). */
  async isQueued(run: number): Promise<boolean> {
    const job = await this.open().getJob(`run-${run}`);
    if (!job) return false;
    return ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'].includes(await job.getState());
  }

  /** Queues a recorded run; a run already queued (its id) is not queued twice. */
  async add(job: RunJob): Promise<void> {
    await this.open().add('run', job, {
      jobId: `run-${job.run}`,
      removeOnComplete: true,
      removeOnFail: { age: 24 * 3600 },
      // Taken while the subscription's lease is still held (its last run's instance not yet given up on):
      // tried again until it is free.
      attempts: 30,
      backoff: { type: 'fixed', delay: Math.max(500, Math.floor(this.lockMs / 2)) },
    });
  }

  /**
   * Stops taking runs. A run going on here is left to its lock: another instance goes on with it once the
   * lock lapses. A Redis that is away would keep a close waiting for ever, so the connections are cut after
   * a bounded wait.
   */
  async onApplicationShutdown(): Promise<void> {
    const closing = Promise.all([this.worker?.close(true), this.queue?.close()]).catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const bounded = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
    await Promise.race([closing, bounded]);
    clearTimeout(timer);
    for (const connection of this.connections) connection.disconnect();
  }

  private open(): Queue<RunJob> {
    if (!this.queue) {
      this.queue = new Queue<RunJob>(QUEUE, { connection: this.connection(), prefix: this.config.redis!.prefix });
      this.queue.on('error', (error) => this.outages.failed(CLIENT, error));
    }
    return this.queue;
  }

  /** BullMQ wants a connection per blocking client, with no per-command retry limit. */
  private connection(): Redis {
    const connection = new Redis(this.config.redis!.url, { maxRetriesPerRequest: null });
    this.outages.watch(CLIENT, connection);
    this.connections.push(connection);
    return connection;
  }
}
