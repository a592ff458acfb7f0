import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { BackgroundTasks } from '../../../common/background/background-tasks';
import { parseDateInput, resolveZone, toSqlDateTime } from '../../../common/dates/date-input';
import { isPublic, type PostStatus } from '../../../core/posts/post-status';
import { DatabaseClock } from '../../../database/database-clock';
import { DatabaseContext } from '../../../database/database-context';
import { recordedVersion, recordFilled } from '../../../database/derived-stores';
import { Leases } from '../../../database/leases';
import { WriteTransactions } from '../../../database/write-transactions';
import { EventDetailsEntity } from '../model/event-details.entity';
import { EVENT_POST_TYPE } from '../model/event.post-type';

/** Its name in logs and metrics. */
export const ZONE_REBASE_TASK = 'event-zone-rebase';
/** Its row in `derived_stores`: which time zone rules the stored UTC times of events follow. */
export const ZONE_RULES_ROW = 'event-utc-times';
/** Events read, and rewritten, per transaction. */
const BATCH = 500;
/** Longer than a rebase of a million events takes; a holder that died frees it after this. */
const LEASE_MS = 15 * 60_000;

/** The time zone rules this process runs with: the IANA data Node's ICU carries (`2025b`). */
export function currentZoneRules(): string {
  return `tz:${process.versions.tz ?? process.versions.icu ?? 'unknown'}`;
}

interface StoredTimes {
  post_id: number | string;
  start_local: string;
  end_local: string;
  start_utc: string;
  end_utc: string;
  timezone: string;
  status: PostStatus;
  date_utc: string;
  author_id: number | string | null;
}

/** An event's UTC times as these rules place its wall times; undefined when they are what is stored. */
export function rebasedTimes(row: StoredTimes): { startUtc: string; endUtc: string } | undefined {
  // Read as a client's wall time is read when the event is written (`parseDateInput`), with today's rules.
  const zone = resolveZone(row.timezone);
  const start = zone && parseDateInput(String(row.start_local), zone);
  const end = zone && parseDateInput(String(row.end_local), zone);
  if (!start || !end) return undefined;
  const startUtc = toSqlDateTime(start.toUTC());
  const endUtc = toSqlDateTime(end.toUTC());
  return startUtc === String(row.start_utc) && endUtc === String(row.end_utc) ? undefined : { startUtc, endUtc };
}

/**
 * An event keeps its wall-clock time in its own zone (what the organizer named: 19:00 in São Paulo); its UTC
 * times are derived with the zone rules of the Node that wrote them. When a country changes its rules and a
 * Node upgrade brings the new data, the UTC times of events still to come are wrong by the change. At start,
 * if the rules differ from the ones recorded, one instance (a lease) places every event that has not ended
 * again and rewrites those that moved, as updates: the day counts, the word index, the stored documents, the
 * change feed, webhooks and caches follow, as for any write. Ended events keep the instants they had.
 */
@Injectable()
export class EventZoneRebase implements OnApplicationBootstrap {
  private readonly logger = new Logger('EventZoneRebase');

  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly leases: Leases,
    private readonly clock: DatabaseClock,
    private readonly tasks: BackgroundTasks,
  ) {}

  /** Before the service listens, so no answer of this start shows a time the rules no longer give. */
  async onApplicationBootstrap(): Promise<void> {
    await this.tasks.run(ZONE_REBASE_TASK, () => this.rebaseIfRulesChanged());
  }

  /** The ids of the events it moved; null when another instance holds the lease (it does the work). */
  async rebaseIfRulesChanged(rules = currentZoneRules()): Promise<number[] | null> {
    if ((await recordedVersion(this.db.manager, ZONE_RULES_ROW)) === rules) return [];
    // Given up when done: the next start after another upgrade must not wait for the lease to run out.
    return this.leases.hold(ZONE_REBASE_TASK, LEASE_MS, () => this.rebaseFor(rules));
  }

  private async rebaseFor(rules: string): Promise<number[]> {
    const moved: number[] = [];
    const now = await this.clock.nowSqlUtc();
    let after = 0;
    for (;;) {
      const rows = await this.db.manager.query<StoredTimes[]>(
        `SELECT d.post_id, d.start_local, d.end_local, d.start_utc, d.end_utc, d.timezone,
                p.status, p.date_utc, p.author_id
           FROM event_details d INNER JOIN posts p ON p.id = d.post_id
          WHERE d.post_id > ? AND d.end_utc >= ? ORDER BY d.post_id LIMIT ${BATCH}`,
        [after, now],
      );
      if (rows.length === 0) break;
      after = Number(rows[rows.length - 1].post_id);
      const changed = rows.flatMap((row) => {
        const times = rebasedTimes(row);
        return times ? [{ row, times }] : [];
      });
      if (changed.length > 0) moved.push(...(await this.rewrite(changed, now)));
    }
    await this.transactions.single((manager) => recordFilled(manager, { name: ZONE_RULES_ROW, version: rules }));
    if (moved.length > 0)
      this.logger.log(`time zone rules ${rules}: moved ${moved.length} event(s) to their new UTC times`);
    return moved;
  }

  private async rewrite(
    changed: { row: StoredTimes; times: { startUtc: string; endUtc: string } }[],
    now: string,
  ): Promise<number[]> {
    return this.transactions.run(async () => {
      const moved: number[] = [];
      for (const { row, times } of changed) {
        // Only if the wall times and zone are still those read: an edit in between placed them itself.
        const result = await this.db.manager
          .createQueryBuilder()
          .update(EventDetailsEntity)
          .set({ startUtc: times.startUtc, endUtc: times.endUtc })
          .where('post_id = :id AND start_local = :startLocal AND end_local = :endLocal AND timezone = :zone', {
            id: Number(row.post_id),
            startLocal: row.start_local,
            endLocal: row.end_local,
            zone: row.timezone,
          })
          .execute();
        if (!result.affected) continue;
        const visible = isPublic(row.status, String(row.date_utc), now);
        this.db.recordChange({
          resource: EVENT_POST_TYPE.noun,
          resourceId: Number(row.post_id),
          action: 'updated',
          publicBefore: visible,
          publicAfter: visible,
          authorId: row.author_id === null ? null : Number(row.author_id),
        });
        moved.push(Number(row.post_id));
      }
      return moved;
    });
  }
}
