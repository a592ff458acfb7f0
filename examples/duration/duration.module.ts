import { Injectable, Module } from '@nestjs/common';
import { DatabaseContext, EventMember, type EventMemberSource } from '../../src/extend';

/** The events' `duration_minutes`: from their start to their end, read for a whole page in one query. */
@EventMember({ name: 'duration_minutes', schema: { type: 'integer', example: 90 } })
@Injectable()
export class EventDurations implements EventMemberSource<number> {
  readonly empty = 0;

  constructor(private readonly db: DatabaseContext) {}

  async valuesOf(ids: number[]): Promise<Map<number, number>> {
    const rows =
      ids.length === 0
        ? []
        : await this.db.manager.query<{ id: number; start: string; end: string }[]>(
            `SELECT post_id AS id, start_utc AS start, end_utc AS end FROM event_details WHERE post_id IN (${ids.map(() => '?').join(',')})`,
            ids,
          );
    const ms = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`);
    return new Map(rows.map((r) => [Number(r.id), Math.round((ms(r.end) - ms(r.start)) / 60_000)]));
  }
}

@Module({ providers: [EventDurations] })
export class DurationModule {}
