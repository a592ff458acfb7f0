import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { AppConfig } from '../../config/app-config';
import { Clock } from './clock';
import { utcToZone } from './zoned-time';

export interface SqlTimestamps {
  utc: string;
  local: string;
}

/** "Now" in UTC and in the site time zone, for the `*_utc` / `*_local` column pairs. */
@Injectable()
export class SiteTime {
  private last: { utc: string; zone: string; local: string } | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  get zone(): string {
    return this.config.siteTimezone;
  }

  now(): SqlTimestamps {
    return this.fromUtc(this.clock.nowSqlUtc());
  }

  /** Now as a luxon instant (UTC). */
  instant(): DateTime {
    return DateTime.fromJSDate(this.clock.now(), { zone: 'utc' });
  }

  /** A UTC timestamp paired with its site-local wall-clock time. */
  fromUtc(utc: string): SqlTimestamps {
    // "Now" is asked for many times a second, always the same second: convert it once.
    const last = this.last;
    if (last?.utc === utc && last.zone === this.zone) return { utc, local: last.local };
    const local = utcToZone(utc, this.zone);
    this.last = { utc, zone: this.zone, local };
    return { utc, local };
  }
}
