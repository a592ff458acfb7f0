import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../../auth/auth-user';
import { PostRecordsService } from '../../../core/posts/post-records.service';
import type { PostWriteInput } from '../../../core/posts/post-write-input';
import type { PostEntity } from '../../../core/posts/post.entity';
import { DatabaseContext } from '../../../database/database-context';
import type { UpdateEventDto } from '../rest/dto/update-event.dto';
import type { EventDates } from '../model/event-dates';
import { EventDetailsEntity } from '../model/event-details.entity';
import { EventRecordWriter, type NewEvent } from '../model/event-record-writer';
import { EVENT_POST_TYPE } from '../model/event.post-type';
import type { EventRecord } from '../model/event-record';
import { isOccurrenceOwn } from '../fields/event-field-declarations';
import { EventSeriesEntity } from './event-series.entity';
import { type Occurrence } from './series-expansion';
import { linesBefore } from './series-lines-edit';
import { excludeOccurrence, includeOccurrence } from './series-exdates';
import { occurrenceDates, wallSeconds } from './occurrence-dates';
import { SeriesRepository } from './series.repository';
import { SeriesTemplates } from './series-templates';
import { assertMaySeries, cutAt, likePost, moveSeriesTimes, planSeries, splitSeries } from './series-plans';
import type { WriteScope } from './write-scope';

/** Occurrences whose dates are worked out between two turns of the event loop (where the database allows one). */
const TURN_EVERY = 100;
/** Occurrences edited or deleted one by one between two turns of the event loop (a few statements each). */
const WRITES_PER_TURN = 50;

/**
 * Recurring events (behaviour.md §11): a series' occurrences are ordinary events, written here many at a
 * time in the caller's transaction. Every change goes through `EventRecordWriter` and the post records, so
 * counts, the change log, documents and webhooks follow each occurrence as they follow any event.
 */
@Injectable()
export class SeriesWrites {
  constructor(
    private readonly db: DatabaseContext,
    private readonly series: SeriesRepository,
    private readonly writer: EventRecordWriter,
    private readonly records: PostRecordsService,
    private readonly templates: SeriesTemplates,
  ) {}

  /** A series, locked (see `SeriesRepository.lock`); null when it is gone. */
  lockSeries(seriesId: number): Promise<EventSeriesEntity | null> {
    return this.series.lock(seriesId);
  }

  /**
   * Makes a stored event the first occurrence of a new series with `lines`, and writes the other occurrences
   * like it. `writeFields`: the write's values of modules' write fields, which every occurrence gets too.
   */
  async start(
    post: PostEntity,
    details: EventDetailsEntity,
    lines: unknown,
    user: AuthUser | null,
    writeFields: object,
    nowUtc: string,
  ): Promise<void> {
    const series: EventSeriesEntity = Object.assign(new EventSeriesEntity(), {
      id: post.id,
      lines: [] as string[],
      timezone: details.timezone,
      startLocal: details.startLocal,
      allDay: details.allDay,
      template: { fields: {}, lengthSeconds: wallSeconds(details.startLocal, details.endLocal) },
      horizonUtc: null as string | null,
    });
    // The expansion is one step of its own (up to about 0.4 s idle for 4,000 occurrences).
    await this.db.yieldTurn();
    const plan = planSeries(series, lines, nowUtc);
    await this.db.yieldTurn();
    series.lines = plan.lines;
    series.horizonUtc = plan.horizonUtc;
    series.template.fields = await this.templates.sharedFieldsOf(post, details, writeFields);
    await this.series.insert(series);
    const before = { ...details };
    Object.assign(details, { seriesId: series.id, occurrenceLocal: details.startLocal, detached: false });
    await this.db.updateRow(EventDetailsEntity, details, before);
    await this.addOccurrences(
      series,
      post,
      plan.occurrences.filter((o) => o.local !== details.startLocal),
      user,
    );
  }

  /**
   * A write with `scope` `following` or `all` to the occurrence `target`: it needs the right to edit the
   * series' first occurrence. Fields apply to every occurrence of the scope that was not edited on its own
   * (and to the target); changed times move each by the target's offset.
   */
  async edit(
    series: EventSeriesEntity,
    target: EventRecord,
    dto: UpdateEventDto,
    scope: Exclude<WriteScope, 'this'>,
    user: AuthUser | null,
    nowUtc: string,
  ): Promise<void> {
    let rows = await this.series.occurrences(series.id);
    assertMaySeries(user, rows, series, 'edit');
    // The series' own copy of the target, read under the series' lock: what moves with the others.
    target = rows.find((r) => r.post.id === target.post.id) ?? target;
    let current = series;
    if (scope === 'following' && target.details.occurrenceLocal !== series.startLocal) {
      ({ series: current, rows } = await splitSeries(this.series, this.records, series, rows, target));
    }
    const times = [dto.start_date, dto.end_date, dto.timezone, dto.all_day].some((v) => v !== undefined);
    let targetDates: EventDates | undefined;
    // Each occurrence's rule time after a move (its RECURRENCE-ID moves with the series), by event id.
    let moved = new Map<number, string>();
    if (times) ({ dates: targetDates, moved } = moveSeriesTimes(current, rows, target, dto, nowUtc));
    const recurrence = (dto as { recurrence?: unknown }).recurrence;
    // The target first: a new password is hashed and an image URL fetched once, then copied to the others.
    const ordered = [target, ...rows.filter((r) => r.post.id !== target.post.id)];
    const shared: UpdateEventDto = Object.fromEntries(Object.entries(dto).filter(([key]) => !isOccurrenceOwn(key)));
    // The terms, links and modules' fields are the same for every occurrence written: resolved once, below.
    const written: PostEntity[] = [];
    for (const [index, row] of ordered.entries()) {
      if (index > 0 && index % WRITES_PER_TURN === 0) await this.db.yieldTurn();
      const isTarget = row.post.id === target.post.id;
      const occurrenceLocal = moved.get(row.post.id);
      if (!isTarget && (row.details.detached || row.post.status === 'trash')) {
        if (occurrenceLocal !== undefined) await this.series.moveOccurrence(row.post.id, occurrenceLocal);
        continue;
      }
      const copied: PostWriteInput = {};
      if (!isTarget && dto.password !== undefined) copied.passwordHash = target.post.passwordHash;
      if (!isTarget && dto.image !== undefined) copied.image = target.post.featuredImageId;
      const rowDto = isTarget ? { ...shared, slug: dto.slug } : { ...shared, password: undefined, image: undefined };
      const dates = !times
        ? undefined
        : isTarget
          ? targetDates
          : occurrenceDates(current, occurrenceLocal ?? row.details.occurrenceLocal!);
      await this.writer.apply(row.post, row.details, rowDto, user, {
        dates,
        post: copied,
        occurrenceLocal,
        links: false,
      });
      written.push(row.post);
    }
    await this.writer.writeLinks(written, shared, user);
    for (const row of rows) row.details.occurrenceLocal = moved.get(row.post.id) ?? row.details.occurrenceLocal;
    // The lines moved with the times: every occurrence shows them, those edited on their own included.
    if (moved.size > 0) this.records.recordEmbeddingChanged(rows.map((r) => r.post));
    current.template.fields = await this.templates.sharedFieldsOf(target.post, target.details, {
      ...current.template.fields,
      ...dto,
    });
    if (recurrence !== undefined) {
      await this.relines(current, rows, recurrence, target.post, user, nowUtc);
    } else await this.series.save(current);
  }

  /** {@link relines} with the series' occurrences read here. */
  async reline(
    series: EventSeriesEntity,
    lines: unknown,
    model: PostEntity,
    user: AuthUser | null,
    nowUtc: string,
  ): Promise<void> {
    await this.relines(series, await this.series.occurrences(series.id), lines, model, user, nowUtc);
  }

  /**
   * New lines for a series, on its first occurrence (any scope) or with `all`/`following`: occurrences the
   * new rule keeps stay as they are (ids, edits), those it drops are deleted, new ones are made like
   * `model`. `null` or `[]` ends the series: only its first occurrence stays, as a single event.
   */
  private async relines(
    series: EventSeriesEntity,
    rows: EventRecord[],
    lines: unknown,
    model: PostEntity,
    user: AuthUser | null,
    nowUtc: string,
  ): Promise<void> {
    if (lines === null || (Array.isArray(lines) && lines.length === 0)) {
      const first = rows.find((r) => r.details.occurrenceLocal === series.startLocal) ?? rows[0];
      for (const row of rows)
        if (row !== first) await this.records.destroy(EVENT_POST_TYPE, row.post, user, { authorized: true });
      if (first) {
        Object.assign(first.details, { seriesId: null, occurrenceLocal: null, detached: false });
        await this.series.clear(first.post.id);
        this.records.recordEmbeddingChanged([first.post]);
      }
      await this.series.remove(series.id);
      return;
    }
    const plan = planSeries(series, lines, nowUtc);
    const wanted = new Set(plan.occurrences.map((o) => o.local));
    const kept = rows.filter((r) => wanted.has(r.details.occurrenceLocal ?? ''));
    for (const [index, row] of rows.entries()) {
      if (index > 0 && index % WRITES_PER_TURN === 0) await this.db.yieldTurn();
      if (!kept.includes(row)) await this.records.destroy(EVENT_POST_TYPE, row.post, user, { authorized: true });
    }
    const have = new Set(kept.map((r) => r.details.occurrenceLocal));
    series.lines = plan.lines;
    series.horizonUtc = plan.horizonUtc;
    await this.series.save(series);
    this.records.recordEmbeddingChanged(kept.map((r) => r.post));
    await this.addOccurrences(
      series,
      model,
      plan.occurrences.filter((o) => !have.has(o.local)),
      user,
    );
  }

  /**
   * A delete with `scope` `following` or `all` (the target's own delete is the caller's): trashes or deletes
   * the other occurrences of the scope; a series cut short ends before the target.
   */
  async deleteOthers(
    series: EventSeriesEntity,
    target: EventRecord,
    scope: Exclude<WriteScope, 'this'>,
    force: boolean,
    user: AuthUser | null,
  ): Promise<void> {
    const rows = await this.series.occurrences(series.id);
    assertMaySeries(user, rows, series, 'delete');
    const cut = target.details.occurrenceLocal ?? '';
    const following = scope === 'following' && cut > series.startLocal;
    const affected = following ? rows.filter((r) => (r.details.occurrenceLocal ?? '') >= cut) : rows;
    for (const [index, row] of affected.entries()) {
      if (index > 0 && index % WRITES_PER_TURN === 0) await this.db.yieldTurn();
      if (row.post.id === target.post.id) continue;
      if (force) await this.records.destroy(EVENT_POST_TYPE, row.post, user, { authorized: true });
      else if (row.post.status !== 'trash') await this.records.trash(EVENT_POST_TYPE, row.post);
    }
    if (following) {
      series.lines = linesBefore(series.lines, cutAt(series, cut));
      series.horizonUtc = null;
      await this.series.save(series);
      this.records.recordEmbeddingChanged(rows.filter((r) => !affected.includes(r)).map((r) => r.post));
    } else if (force) await this.series.remove(series.id);
  }

  /** One occurrence deleted on its own: its rule time becomes an EXDATE of the series. */
  excludeOne(series: EventSeriesEntity, target: EventRecord, force: boolean): Promise<void> {
    return excludeOccurrence(this.series, this.records, series, target, force);
  }

  /** One occurrence restored from the trash on its own: the EXDATE its delete added goes. */
  includeOne(series: EventSeriesEntity, target: EventRecord): Promise<void> {
    return includeOccurrence(this.series, this.records, series, target);
  }

  /** Occurrences the horizon reached: made like the latest occurrence not edited on its own. */
  async extend(series: EventSeriesEntity, user: AuthUser, nowUtc: string): Promise<number> {
    const rows = await this.series.occurrences(series.id);
    // The horizon moves on however long the series has run: its limit counts what lies ahead.
    const plan = planSeries(series, series.lines, nowUtc, { limitFromNow: true });
    const last = rows.reduce(
      (max, r) => ((r.details.occurrenceLocal ?? '') > max ? r.details.occurrenceLocal! : max),
      '',
    );
    const have = new Set(rows.map((r) => r.details.occurrenceLocal));
    const model = [...rows].reverse().find((r) => !r.details.detached && r.post.status !== 'trash') ?? rows.at(-1);
    const missing = plan.occurrences.filter((o) => o.local > last && !have.has(o.local));
    series.horizonUtc = plan.horizonUtc;
    await this.series.save(series);
    if (model) await this.addOccurrences(series, model.post, missing, user);
    return model ? missing.length : 0;
  }

  private async addOccurrences(
    series: EventSeriesEntity,
    model: PostEntity,
    occurrences: Occurrence[],
    user: AuthUser | null,
  ): Promise<void> {
    const dto = { ...series.template.fields, title: model.title } as UpdateEventDto & { title: string };
    const post = likePost(model);
    const baseSlug = model.slug.replace(/-\d{4}-\d{2}-\d{2}(?:-\d+)?$/, '');
    const events: (NewEvent & { post: PostWriteInput })[] = [];
    for (const [index, occurrence] of occurrences.entries()) {
      // Placing 4,000 wall times in a zone takes most of a second: others go first between runs of them.
      if (index > 0 && index % TURN_EVERY === 0) await this.db.yieldTurn();
      events.push({
        dates: occurrenceDates(series, occurrence.local),
        zoneName: series.timezone,
        allDay: series.allDay,
        occurrence: { seriesId: series.id, occurrenceLocal: occurrence.local },
        post: { ...post, slug: `${baseSlug}-${occurrence.local.slice(0, 10)}` },
      });
    }
    await this.writer.insertMany(dto, events, user);
  }
}
