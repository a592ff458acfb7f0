import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../common/dates/clock';
import { AppConfig } from '../../config/app-config';
import { WebhookDeliverer, type AttemptOutcome } from './webhook-deliverer';
import { WebhookDeliveryJanitor } from './webhook-delivery.janitor';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookQueue } from './webhook-queue';

const PARALLEL = 4;
const PRUNE_EVERY_MS = 3_600_000;

/**
 * The webhook worker: every `WEBHOOKS_POLL_SECONDS` it dispatches new changes and attempts what is due,
 * in this process a few at a time, or, with `REDIS_URL`, as jobs on the BullMQ queue that every
 * instance's worker takes from. Any number of instances may run it (`WEBHOOKS_WORKER`): the dispatcher's
 * lock and the deliveries' leases keep each change delivered once per attempt.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
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
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.webhooks.worker) return;
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
    this.running = this.runOnce()
      .catch((error: unknown) => this.logger.warn(`webhook worker round failed: ${String(error)}`))
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
