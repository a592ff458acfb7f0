import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BackgroundTasks } from '../../../common/background/background-tasks';
import { AppConfig } from '../../../config/app-config';
import { Leases } from '../../../database/leases';
import { ImportSubscriptions } from './import-subscriptions.service';

/** Its name in logs, metrics and the lease table. */
export const IMPORT_SCHEDULER_TASK = 'import-scheduler';
/** Subscriptions looked at per round; the rest wait for the next one. */
const PER_ROUND = 20;

/**
 * Runs the subscriptions that are due (`IMPORTS_SCHEDULER`, every `IMPORTS_POLL_SECONDS`): one instance looks
 * at a time (a lease), and each subscription's own lease keeps one run of it at a time among all instances,
 * so a subscription is refreshed once per interval however many instances run.
 */
@Injectable()
export class ImportScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ImportScheduler.name);
  private timer: NodeJS.Timeout | null = null;
  /** A round is looking in this process (the lease is per process: a second round here would renew it). */
  private looking = false;

  constructor(
    private readonly subscriptions: ImportSubscriptions,
    private readonly leases: Leases,
    private readonly config: AppConfig,
    private readonly tasks: BackgroundTasks,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.imports.scheduler) return;
    this.tasks.register(IMPORT_SCHEDULER_TASK);
    this.timer = setInterval(() => void this.runRound(), this.config.imports.pollMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look for due subscriptions; how many it ran, or null when another round (here or elsewhere) is looking. */
  async runRound(): Promise<number | null | undefined> {
    if (this.looking) return null;
    this.looking = true;
    try {
      return await this.tasks.run(IMPORT_SCHEDULER_TASK, async () => {
        if (!(await this.leases.acquire(IMPORT_SCHEDULER_TASK, this.config.imports.pollMs * 2))) return null;
        let ran = 0;
        for (const id of await this.subscriptions.due(PER_ROUND)) {
          try {
            if (await this.subscriptions.runOnce(id, 'schedule')) ran++;
          } catch (error) {
            // A run's own failures are in its report; this is the database failing under it.
            this.logger.warn(`import ${id} did not run: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
        return ran;
      });
    } finally {
      this.looking = false;
    }
  }
}
