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
  constructor(
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  get zone(): string {
    return this.config.siteTimezone;
  }

  now(): SqlTimestamps {
    const utc = this.clock.nowSqlUtc();
    return { utc, local: utcToZone(utc, this.zone) };
  }

  /** Now as a luxon instant (UTC). */
  instant(): DateTime {
    return DateTime.fromJSDate(this.clock.now(), { zone: 'utc' });
  }

  /** A UTC timestamp paired with its site-local wall-clock time. */
  fromUtc(utc: string): SqlTimestamps {
    return { utc, local: utcToZone(utc, this.zone) };
  }
}
