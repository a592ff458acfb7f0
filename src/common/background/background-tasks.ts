import { messageOf } from '../errors/message-of';
import { Injectable, Logger } from '@nestjs/common';

/** What is known of one background task since this process started. */
export interface BackgroundTaskState {
  /** Unix milliseconds of the last round that ended well, or null for none yet. */
  lastSuccessMs: number | null;
  lastFailureMs: number | null;
  failures: number;
  lastError: string | null;
}

/**
 * The rounds of work no request waits for (the scheduled-post publisher, the change-log janitor, the
 * webhook worker): a round that fails is logged at `error` with the task's name and counted, never
 * swallowed, and each task's last success is kept for `/metrics`
 * (`background_task_last_success_timestamp_seconds`), so an operator can alert on a task that has stopped
 * succeeding as well as on one that fails loudly.
 */
@Injectable()
export class BackgroundTasks {
  private readonly logger = new Logger('BackgroundTasks');
  private readonly states = new Map<string, BackgroundTaskState>();

  /** Declares a task, so `/metrics` shows it (with no success yet) before its first round ends. */
  register(name: string): void {
    if (!this.states.has(name)) {
      this.states.set(name, { lastSuccessMs: null, lastFailureMs: null, failures: 0, lastError: null });
    }
  }

  /** Runs one round; its error is logged and counted, and the round's result is undefined then. */
  async run<T>(name: string, round: () => Promise<T>): Promise<T | undefined> {
    this.register(name);
    const state = this.states.get(name)!;
    try {
      const result = await round();
      state.lastSuccessMs = Date.now();
      return result;
    } catch (error) {
      state.failures++;
      state.lastFailureMs = Date.now();
      state.lastError = messageOf(error);
      this.logger.error({ msg: `background task ${name} failed: ${state.lastError}`, task: name, err: error });
      return undefined;
    }
  }

  get all(): ReadonlyMap<string, Readonly<BackgroundTaskState>> {
    return this.states;
  }
}
