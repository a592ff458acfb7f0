import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BackgroundTasks } from '../../common/background/background-tasks';
import { Clock } from '../../common/dates/clock';
import { AppConfig } from '../../config/app-config';
import { WebhookDeliverer, type AttemptOutcome, type DueDelivery } from './webhook-deliverer';
import { WebhookDeliveryJanitor } from './webhook-delivery.janitor';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookQueue } from './webhook-queue';

const PARALLEL = 4;
const PRUNE_EVERY_MS = 3_600_000;
/** Its name in logs and metrics. */
export const WEBHOOK_WORKER_TASK = 'webhook-worker';

/**
 * The webhook worker: every `WEBHOOKS_POLL_SECONDS` it dispatches new changes and attempts what is due,
 * in this process a few at a time, or, with `REDIS_URL`, as jobs on the BullMQ queue that every
 * instance's worker takes from. Any number of instances may run it (`WEBHOOKS_WORKER`): the dispatcher's
 * lock and the deliveries' leases keep each change delivered once per attempt.
 *
 * Endpoints are kept apart: a round starts attempts and does not wait for them, at most one at a time
 * per endpoint and {@link PARALLEL} in all, and the next round starts as soon as one ends. A receiver that
 * hangs until `WEBHOOKS_TIMEOUT_SECONDS` therefore holds one slot, and every other endpoint's deliveries
 * go on (a round that waited for all its attempts made every endpoint wait for the slowest).
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  /** Attempts under way from this process, by endpoint: one each at most. */
  private readonly inFlight = new Map<number, Promise<AttemptOutcome>>();
  /** When this worker last pruned old deliveries (clock time; 0: not yet). */
  private prunedAt = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly dispatcher: WebhookDispatcher,
    private readonly deliverer: WebhookDeliverer,
    private readonly queue: WebhookQueue,
    private readonly janitor: WebhookDeliveryJanitor,
    private readonly clock: Clock,
    private readonly tasks: BackgroundTasks,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.webhooks.worker) return;
    this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Runs rounds every `WEBHOOKS_POLL_SECONDS` (and as soon as an attempt ends) until {@link stop}. */
  start(): void {
    if (this.timer) return;
    this.tasks.register(WEBHOOK_WORKER_TASK);
    this.queue.consume();
    this.timer = setInterval(() => this.tick(), this.config.webhooks.pollMs);
    this.timer.unref();
  }

  /** Stops the rounds and waits for the round and the attempts under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Takes BullMQ jobs in this process too (the CLI's `webhooks:work`); nothing without Redis. */
  consumeQueue(): void {
    this.queue.consume();
  }

  private tick(): void {
    if (this.running || !this.timer) return;
    this.running = this.tasks
      .run(WEBHOOK_WORKER_TASK, () => this.round())
      .then(() => undefined)
      .finally(() => (this.running = null));
  }

  /** The timer's round: changes dispatched, then attempts started for endpoints with none under way. */
  private async round(): Promise<void> {
    await this.dispatchAll();
    for (const delivery of await this.deliverer.due(100)) {
      if (this.inFlight.size >= PARALLEL) break;
      if (this.inFlight.has(delivery.endpointId)) continue;
      const attempt = this.attemptOne(delivery)
        .catch((error: unknown) => {
          this.logger.warn(`webhook delivery ${delivery.id} not attempted: ${String(error)}`);
          return 'skipped' as const;
        })
        .finally(() => {
          this.inFlight.delete(delivery.endpointId);
          // A slot is free: the next round at once, not a poll interval later.
          setImmediate(() => this.tick());
        });
      this.inFlight.set(delivery.endpointId, attempt);
    }
  }

  private attemptOne(delivery: DueDelivery): Promise<AttemptOutcome> {
    if (this.queue.enabled) return this.queue.attempt([delivery.id]).then(([outcome]) => outcome ?? 'skipped');
    return this.deliverer.attempt(delivery.id);
  }

  /** Old deliveries pruned (hourly), then every new change dispatched; how many were dispatched. */
  private async dispatchAll(): Promise<number> {
    const now = this.clock.now().getTime();
    if (now - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = now;
      await this.janitor.prune();
    }
    let dispatched = 0;
    for (let read = await this.dispatcher.dispatch(); read > 0; read = await this.dispatcher.dispatch()) {
      dispatched += read;
    }
    return dispatched;
  }

  /**
   * One round that waits for its attempts (tests, and a look at what a round does): every new change
   * dispatched, every due delivery attempted once, an endpoint's deliveries one after another, in order.
   */
  async runOnce(): Promise<{ dispatched: number; outcomes: AttemptOutcome[] }> {
    const dispatched = await this.dispatchAll();
    const due = await this.deliverer.due(100);
    if (this.queue.enabled) return { dispatched, outcomes: await this.queue.attempt(due.map((d) => d.id)) };
    const outcomes = new Array<AttemptOutcome>(due.length);
    const byEndpoint = new Map<number, number[]>();
    for (const [index, delivery] of due.entries()) {
      byEndpoint.set(delivery.endpointId, [...(byEndpoint.get(delivery.endpointId) ?? []), index]);
    }
    const queues = [...byEndpoint.values()];
    const lane = async (): Promise<void> => {
      for (let queue = queues.shift(); queue; queue = queues.shift()) {
        for (const index of queue) outcomes[index] = await this.deliverer.attempt(due[index].id);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, queues.length) }, lane));
    return { dispatched, outcomes };
  }
}
