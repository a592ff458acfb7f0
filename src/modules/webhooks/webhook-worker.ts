import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BackgroundTasks } from '../../common/background/background-tasks';
import { Clock } from '../../common/dates/clock';
import { AppConfig } from '../../config/app-config';
import { WebhookDeliverer, type AttemptOutcome } from './webhook-deliverer';
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
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
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
    this.tasks.register(WEBHOOK_WORKER_TASK);
    this.queue.consume();
    this.timer = setInterval(() => this.tick(), this.config.webhooks.pollMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** Takes BullMQ jobs in this process too (the CLI's `webhooks:work`); nothing without Redis. */
  consumeQueue(): void {
    this.queue.consume();
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.tasks
      .run(WEBHOOK_WORKER_TASK, () => this.runOnce())
      .then(() => undefined)
      .finally(() => (this.running = null));
  }

  /** One round: every new change dispatched, every due delivery attempted once; hourly, old ones pruned. */
  async runOnce(): Promise<{ dispatched: number; outcomes: AttemptOutcome[] }> {
    const now = this.clock.now().getTime();
    if (now - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = now;
      await this.janitor.prune();
    }
    let dispatched = 0;
    for (let read = await this.dispatcher.dispatch(); read > 0; read = await this.dispatcher.dispatch()) {
      dispatched += read;
    }
    const outcomes: AttemptOutcome[] = [];
    const due = await this.deliverer.due(100);
    if (this.queue.enabled) return { dispatched, outcomes: await this.queue.attempt(due) };
    for (let i = 0; i < due.length; i += PARALLEL) {
      outcomes.push(...(await Promise.all(due.slice(i, i + PARALLEL).map((id) => this.deliverer.attempt(id)))));
    }
    return { dispatched, outcomes };
  }
}
