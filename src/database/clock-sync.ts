import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../common/dates/clock';
import { AppConfig } from '../config/app-config';
import { DatabaseClock } from './database-clock';

/** Round trips per check; the one that took least says the most about the offset. */
const SAMPLES = 3;

export interface ClockReport {
  /** The database's clock minus this process's, in milliseconds, as last measured; null before the first check. */
  skew_ms: number | null;
  max_skew_ms: number;
  /** `skewed`: further than `CLOCK_MAX_SKEW_MS` from the database's (corrected, but the host's clock wants fixing). */
  status: 'ok' | 'skewed' | 'unknown';
}

/**
 * Keeps `Clock` on the database's time. Publishing decisions and the reads that ask whether a scheduled post
 * is published yet used the process clock: an instance 90 s fast showed scheduled posts 90 s early and stored
 * a post dated 60 s ahead as published. Each instance now measures the database's clock against its own at
 * start and every `CLOCK_CHECK_SECONDS` (half the fastest of a few round trips is the uncertainty), and
 * corrects by the difference, so every instance reads the same "now" within a few milliseconds. A skew
 * past `CLOCK_MAX_SKEW_MS` is logged once when it starts and once when it ends.
 */
@Injectable()
export class ClockSync implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Clock');
  private timer: NodeJS.Timeout | null = null;
  private skewMs: number | null = null;
  private skewed = false;

  constructor(
    private readonly clock: Clock,
    private readonly databaseClock: DatabaseClock,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const settings = this.config.clockSync;
    this.clock.simulateSkew(settings.offsetMs);
    if (!settings.enabled) return;
    await this.check();
    this.timer = setInterval(() => void this.check(), settings.checkMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  get report(): ClockReport | undefined {
    if (!this.config.clockSync.enabled) return undefined;
    const max = this.config.clockSync.maxSkewMs;
    return {
      skew_ms: this.skewMs,
      max_skew_ms: max,
      status: this.skewMs === null ? 'unknown' : this.skewed ? 'skewed' : 'ok',
    };
  }

  /** Measures and corrects; a database that does not answer leaves the last correction in place. */
  async check(): Promise<void> {
    let best: { skew: number; trip: number } | null = null;
    try {
      for (let i = 0; i < SAMPLES; i++) {
        const sent = this.clock.processNowMs();
        const database = await this.databaseClock.nowMs();
        const received = this.clock.processNowMs();
        const trip = received - sent;
        if (!best || trip < best.trip) best = { skew: database - (sent + received) / 2, trip };
      }
    } catch (error) {
      this.logger.warn({ msg: `the database's clock could not be read: ${String(error)}` });
      return;
    }
    const skew = Math.round(best!.skew);
    this.skewMs = skew;
    this.clock.correct(skew);
    const max = this.config.clockSync.maxSkewMs;
    if (Math.abs(skew) > max && !this.skewed) {
      this.skewed = true;
      this.logger.warn({
        msg: `this host's clock is ${Math.abs(skew)} ms ${skew < 0 ? 'ahead of' : 'behind'} the database's (more than CLOCK_MAX_SKEW_MS, ${max} ms); the service corrects for it, but the host's time sync wants fixing`,
        skew_ms: skew,
      });
    } else if (Math.abs(skew) <= max && this.skewed) {
      this.skewed = false;
      this.logger.log({ msg: `this host's clock is within ${max} ms of the database's again`, skew_ms: skew });
    }
  }
}
