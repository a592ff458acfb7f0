import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { RedisOutages } from '../../common/redis/redis-outages';
import { WebhookDeliverer, type AttemptOutcome } from './webhook-deliverer';

const QUEUE = 'webhook-deliveries';
/** How this queue's clients are named in the outage log. */
const CLIENT = 'webhook queue';
const PARALLEL = 4;

interface DeliveryJob {
  id: string;
}

/**
 * Delivery attempts on a BullMQ queue in Redis (`REDIS_URL`): each due delivery becomes a job, and the
 * BullMQ workers of every instance (`WEBHOOKS_WORKER`) share them. A job is one attempt; what is
 * delivered, retried or given up stays in the database (the delivery's lease still makes sure one
 * worker sends it at a time), so a job lost with a crashed worker or a flushed Redis only delays it:
 * the next round finds the delivery due again.
 */
@Injectable()
export class WebhookQueue implements OnApplicationShutdown {
  private readonly connections: Redis[] = [];
  private queue: Queue<DeliveryJob, AttemptOutcome> | null = null;
  private events: QueueEvents | null = null;
  private worker: Worker<DeliveryJob, AttemptOutcome> | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly deliverer: WebhookDeliverer,
    private readonly outages: RedisOutages,
  ) {}

  get enabled(): boolean {
    return this.config.redis !== null;
  }

  /** Takes jobs from the queue in this process. */
  consume(): void {
    if (!this.enabled || this.worker) return;
    this.worker = new Worker<DeliveryJob, AttemptOutcome>(
      QUEUE,
      (job: Job<DeliveryJob>) => this.deliverer.attempt(job.data.id),
      {
        connection: this.connection(),
        prefix: this.config.redis!.prefix,
        concurrency: PARALLEL,
        lockDuration: this.config.webhooks.leaseMs,
      },
    );
    // BullMQ re-emits its connections' errors (its own duplicates' too) here; unheard, it prints each to stderr.
    this.worker.on('error', (error) => this.outages.failed(CLIENT, error));
  }

  /** Queues one attempt of each delivery and waits until some worker, on any instance, has made it. */
  async attempt(ids: string[]): Promise<AttemptOutcome[]> {
    if (ids.length === 0) return [];
    const { queue, events } = this.open();
    await events.waitUntilReady();
    const jobs = await queue.addBulk(
      ids.map((id) => ({
        name: 'deliver',
        data: { id },
        opts: { removeOnComplete: { age: 3600 }, removeOnFail: { age: 3600 } },
      })),
    );
    const ttl = this.config.webhooks.leaseMs + this.config.webhooks.timeoutMs;
    return Promise.all(
      jobs.map((job) =>
        // A job that fails or outlives its lease is tried again in a later round.
        job.waitUntilFinished(events, ttl).then(
          (outcome: AttemptOutcome) => outcome,
          () => 'skipped' as const,
        ),
      ),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.events?.close();
    await this.queue?.close();
    await Promise.all(this.connections.map((c) => c.quit().catch(() => undefined)));
  }

  private open(): { queue: Queue<DeliveryJob, AttemptOutcome>; events: QueueEvents } {
    const prefix = this.config.redis!.prefix;
    if (!this.queue) {
      this.queue = new Queue<DeliveryJob, AttemptOutcome>(QUEUE, { connection: this.connection(), prefix });
      this.queue.on('error', (error) => this.outages.failed(CLIENT, error));
    }
    if (!this.events) {
      this.events = new QueueEvents(QUEUE, { connection: this.connection(), prefix });
      this.events.on('error', (error) => this.outages.failed(CLIENT, error));
    }
    return { queue: this.queue, events: this.events };
  }

  /** BullMQ wants a connection per blocking client, with no per-command retry limit. */
  private connection(): Redis {
    const connection = new Redis(this.config.redis!.url, { maxRetriesPerRequest: null });
    this.outages.watch(CLIENT, connection);
    this.connections.push(connection);
    return connection;
  }
}
