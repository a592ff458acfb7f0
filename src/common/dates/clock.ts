import { Injectable } from '@nestjs/common';
import { formatSqlDateTime } from '../../database/datetime.transformer';

/** The time source; tests replace it to pin "now". */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }

  /** Now in UTC as `YYYY-MM-DD HH:MM:SS`, the format datetime columns hold. */
  nowSqlUtc(): string {
    return formatSqlDateTime(this.now());
  }
}
