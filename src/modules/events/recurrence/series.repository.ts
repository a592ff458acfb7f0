import { Injectable } from '@nestjs/common';
import { In, LessThan } from 'typeorm';
import { DatabaseContext } from '../../../database/database-context';
import { EventDetailsEntity } from '../model/event-details.entity';
import { EventsRepository } from '../archive/events.repository';
import type { EventRecord } from '../model/event-record';
import { EventSeriesEntity } from './event-series.entity';

/** Series queries (behaviour.md §11), named by what they are for. */
@Injectable()
export class SeriesRepository {
  constructor(
    private readonly db: DatabaseContext,
    private readonly events: EventsRepository,
  ) {}

  /** The lines of the series among `ids` (nulls skipped): one query for a whole page. */
  async linesOf(ids: readonly (number | null)[]): Promise<Map<number, string[]>> {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    if (wanted.length === 0) return new Map();
    const rows = await this.db.manager.find(EventSeriesEntity, {
      select: { id: true, lines: true },
      where: { id: In(wanted) },
    });
    return new Map(rows.map((r) => [r.id, r.lines]));
  }

  /** The ids of a series' occurrences at these rule times (RECURRENCE-IDs), by rule time. */
  async occurrenceIdsAt(seriesId: number, occurrenceLocals: readonly string[]): Promise<Map<string, number>> {
    if (occurrenceLocals.length === 0) return new Map();
    const rows = await this.db.manager.find(EventDetailsEntity, {
      select: { postId: true, occurrenceLocal: true },
      where: { seriesId, occurrenceLocal: In([...occurrenceLocals]) },
    });
    return new Map(rows.map((r) => [r.occurrenceLocal!, r.postId]));
  }

  /** Whole series rows by id (a feed writes each series from its row). */
  async rowsOf(ids: number[]): Promise<Map<number, EventSeriesEntity>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.manager.findBy(EventSeriesEntity, { id: In(ids) });
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * The series, its row locked until the write ends: every write that touches a series' occurrences takes
   * this lock first, so two edits of one series (or of a series and one of its occurrences) run one after
   * the other and each reads what the other wrote.
   */
  async lock(id: number): Promise<EventSeriesEntity | null> {
    await this.db.manager
      .createQueryBuilder()
      .update(EventSeriesEntity)
      .set({ allDay: () => 'all_day' })
      .where('id = :id', { id })
      .execute();
    return this.db.manager.findOneBy(EventSeriesEntity, { id });
  }

  /** An occurrence's rule time, moved with its series (an exception keeps its own times). */
  async moveOccurrence(eventId: number, occurrenceLocal: string): Promise<void> {
    await this.db.manager.update(EventDetailsEntity, { postId: eventId }, { occurrenceLocal });
  }

  /** Makes an occurrence a single event again (its series ended). */
  async clear(eventId: number): Promise<void> {
    await this.db.manager.update(
      EventDetailsEntity,
      { postId: eventId },
      { seriesId: null, occurrenceLocal: null, detached: false },
    );
  }

  async insert(series: EventSeriesEntity): Promise<void> {
    // TypeORM's insert writes the JSON columns (simple-json) as text; its deep-partial type does not take them.
    await this.db.manager.insert(EventSeriesEntity, series as never);
  }

  async save(series: EventSeriesEntity): Promise<void> {
    await this.db.updateRow(EventSeriesEntity, series);
  }

  async remove(id: number): Promise<void> {
    await this.db.manager.delete(EventSeriesEntity, { id });
  }

  /** Every occurrence of a series (any status), in the order of their rule times. */
  async occurrences(seriesId: number): Promise<EventRecord[]> {
    const rows = await this.db.manager.find(EventDetailsEntity, {
      select: { postId: true },
      where: { seriesId },
      order: { occurrenceLocal: 'ASC', postId: 'ASC' },
    });
    return this.events.recordsInOrder(rows.map((r) => r.postId));
  }

  /** Puts events into a series (or, with null, takes them out). */
  async assign(ids: number[], seriesId: number | null): Promise<void> {
    if (ids.length === 0) return;
    await this.db.manager.update(EventDetailsEntity, { postId: In(ids) }, { seriesId });
  }

  /** Series whose horizon falls before `beforeUtc`: they need occurrences made further ahead. */
  async dueForHorizon(beforeUtc: string, limit: number): Promise<number[]> {
    const rows = await this.db.manager.find(EventSeriesEntity, {
      select: { id: true },
      where: { horizonUtc: LessThan(beforeUtc) },
      order: { horizonUtc: 'ASC' },
      take: limit,
    });
    return rows.map((r) => r.id);
  }
}
