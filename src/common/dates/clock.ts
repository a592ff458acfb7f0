import { Injectable } from '@nestjs/common';
import { formatSqlDateTime } from '../../database/datetime.transformer';

/**
 * The time source; tests replace it to pin "now". Its time is the process clock corrected by the skew
 * `ClockSync` measured against the database's clock, so instances whose clocks disagree still agree on
 * whether a post is published yet.
 */
@Injectable()
export class Clock {
  /** A drill's simulated skew of this process's own clock (`CLOCK_OFFSET_MS`). */
  private simulatedSkewMs = 0;
  /** The database's clock minus this process's, as last measured. */
  private correctionMs = 0;

  now(): Date {
    return new Date(this.processNowMs() + this.correctionMs);
  }

  /** Now in UTC as `YYYY-MM-DD HH:MM:SS`, the format datetime columns hold. */
  nowSqlUtc(): string {
    return formatSqlDateTime(this.now());
  }

  /** This process's own clock, uncorrected (what `ClockSync` compares with the database's). */
  processNowMs(): number {
    return Date.now() + this.simulatedSkewMs;
  }

  simulateSkew(ms: number): void {
    this.simulatedSkewMs = ms;
  }

  correct(ms: number): void {
    this.correctionMs = ms;
  }
}
