import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DateTime } from 'luxon';
import type { AuthUser } from '../../../auth/auth-user';
import { postPolicy } from '../../../auth/post-policy';
import { resolveZone } from '../../../common/dates/date-input';
import { wallTimeOf } from '../../../common/dates/wall-time';
import { DomainError } from '../../../common/errors/domain-error';
import { RequestValidationError } from '../../../common/validation/request-validation.error';
import { reason } from '../../../common/validation/validation-messages';
import { PostRecordsService } from '../../../core/posts/post-records.service';
import type { WritableStatus } from '../../../core/posts/post-status';
import type { PostWriteInput } from '../../../core/posts/post-write-input';
import type { PostEntity } from '../../../core/posts/post.entity';
import { DatabaseContext } from '../../../database/database-context';
import type { UpdateEventDto } from '../dto/update-event.dto';
import type { EventDates } from '../event-dates';
import { EventDetailsEntity } from '../event-details.entity';
import { eventDatesOf } from '../event-details-input';
import { EventRecordWriter, type NewEvent } from '../event-record-writer';
import { EVENT_POST_TYPE } from '../event.post-type';
import type { EventRecord } from '../events.repository';
import { LinkedRecordsReader } from '../linked/linked-records.reader';
import { templateFieldsOf } from '../fields/event-write-fields';
import {
  assertWriteFieldsClassified,
  EventFieldRegistry,
  isOccurrenceOwn,
  seriesSharingOf,
} from '../links/event-field';
import { EventLinkRegistry } from '../links/event-links.module';
import { EventTaxonomyRegistry } from '../taxonomies/event-taxonomy';
import { EventSeriesEntity } from './event-series.entity';
import { parseRecurrence } from './recurrence-lines';
import { expandSeries, type Occurrence } from './series-expansion';
import { linesBefore, linesFrom, linesMovedBy, withExdate } from './series-lines-edit';
import { occurrenceDates, shiftWall, wallSeconds } from './occurrence-dates';
import { SeriesRepository } from './series.repository';
import type { WriteScope } from './write-scope';

/** Occurrences whose dates are worked out between two turns of the event loop (where the database allows one). */
const TURN_EVERY = 100;
/** Occurrences edited or deleted one by one between two turns of the event loop (a few statements each). */
const WRITES_PER_TURN = 50;

/** The post fields an occurrence takes from its model as they are stored (no second hashing or image fetch). */
function likePost(model: PostEntity): PostWriteInput {
  return {
    status: (model.status === 'trash' ? (model.trashedFrom ?? 'draft') : model.status) as WritableStatus,
    dateUtc: model.dateUtc,
    // The model's author as stored (none when that user was deleted), whoever writes the occurrence.
    author: model.authorId,
    passwordHash: model.passwordHash,
    image: model.featuredImageId,
  };
}

/**
 * Recurring events (behaviour.md §11): a series' occurrences are ordinary events, written here many at a
 * time in the caller's transaction. Every change goes through `EventRecordWriter` and the post records, so
 * counts, the change log, documents and webhooks follow each occurrence as they follow any event.
 */
@Injectable()
export class SeriesWrites implements OnModuleInit {
  constructor(
    private readonly db: DatabaseContext,
    private readonly series: SeriesRepository,
    private readonly writer: EventRecordWriter,
    private readonly records: PostRecordsService,
    private readonly linkedRecords: LinkedRecordsReader,
    private readonly links: EventLinkRegistry,
    private readonly fields: EventFieldRegistry,
    private readonly eventTaxonomies: EventTaxonomyRegistry,
  ) {}

  onModuleInit(): void {
    assertWriteFieldsClassified();
  }

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
    const plan = this.plan(series, lines, nowUtc);
    await this.db.yieldTurn();
    series.lines = plan.lines;
    series.horizonUtc = plan.horizonUtc;
    series.template.fields = await this.sharedFieldsOf(post, details, writeFields);
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
    this.assertMay(user, rows, series, 'edit');
    // The series' own copy of the target, read under the series' lock: what moves with the others.
    target = rows.find((r) => r.post.id === target.post.id) ?? target;
    let current = series;
    if (scope === 'following' && target.details.occurrenceLocal !== series.startLocal) {
      ({ series: current, rows } = await this.split(series, rows, target));
    }
    const times = [dto.start_date, dto.end_date, dto.timezone, dto.all_day].some((v) => v !== undefined);
    let targetDates: EventDates | undefined;
    // Each occurrence's rule time after a move (its RECURRENCE-ID moves with the series), by event id.
    let moved = new Map<number, string>();
    if (times) ({ dates: targetDates, moved } = this.moveTimes(current, rows, target, dto, nowUtc));
    const recurrence = (dto as { recurrence?: unknown }).recurrence;
    // The target first: a new password is hashed and an image URL fetched once, then copied to the others.
    const ordered = [target, ...rows.filter((r) => r.post.id !== target.post.id)];
    const shared: UpdateEventDto = Object.fromEntries(Object.entries(dto).filter(([key]) => !isOccurrenceOwn(key)));
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
      await this.writer.apply(row.post, row.details, rowDto, user, { dates, post: copied, occurrenceLocal });
    }
    for (const row of rows) row.details.occurrenceLocal = moved.get(row.post.id) ?? row.details.occurrenceLocal;
    // The lines moved with the times: every occurrence shows them, those edited on their own included.
    if (moved.size > 0) this.records.recordEmbeddingChanged(rows.map((r) => r.post));
    current.template.fields = await this.sharedFieldsOf(target.post, target.details, {
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
    const plan = this.plan(series, lines, nowUtc);
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
    this.assertMay(user, rows, series, 'delete');
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
      series.lines = linesBefore(series.lines, this.cutAt(series, cut));
      series.horizonUtc = null;
      await this.series.save(series);
      this.records.recordEmbeddingChanged(rows.filter((r) => !affected.includes(r)).map((r) => r.post));
    } else if (force) await this.series.remove(series.id);
  }

  /** One occurrence deleted on its own: its rule time becomes an EXDATE of the series. */
  async excludeOne(series: EventSeriesEntity, target: EventRecord, force: boolean): Promise<void> {
    const rows = await this.series.occurrences(series.id);
    const others = rows.filter((r) => r.post.id !== target.post.id);
    if (force && others.length === 0) {
      await this.series.remove(series.id);
      return;
    }
    series.lines = withExdate(series.lines, target.details.occurrenceLocal ?? '', series.allDay);
    await this.series.save(series);
    this.records.recordEmbeddingChanged(others.map((r) => r.post));
  }

  /** Occurrences the horizon reached: made like the latest occurrence not edited on its own. */
  async extend(series: EventSeriesEntity, user: AuthUser, nowUtc: string): Promise<number> {
    const rows = await this.series.occurrences(series.id);
    const plan = this.plan(series, series.lines, nowUtc);
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

  /** Parsed and expanded lines: a 400 naming `recurrence` for lines that are not a series this service keeps. */
  private plan(
    series: EventSeriesEntity,
    lines: unknown,
    nowUtc: string,
  ): { lines: string[]; occurrences: Occurrence[]; horizonUtc: string | null } {
    const zone = resolveZone(series.timezone);
    const start = wallTimeOf(series.startLocal);
    if (!zone || !start) throw RequestValidationError.of({ timezone: reason('time_zone') });
    const parsed = parseRecurrence(lines, series.timezone);
    if (!parsed.ok) throw RequestValidationError.of({ recurrence: reason('recurrence', parsed.problem) });
    const expanded = expandSeries(parsed.set, {
      start,
      zone,
      nowUtc: DateTime.fromSQL(nowUtc, { zone: 'UTC' }),
    });
    if (!expanded.ok) throw RequestValidationError.of({ recurrence: reason('recurrence', expanded.problem) });
    return {
      lines: parsed.set.lines,
      occurrences: expanded.occurrences,
      horizonUtc: expanded.horizonUtc?.toUTC().toFormat('yyyy-MM-dd HH:mm:ss') ?? null,
    };
  }

  /**
   * Changed times of an `all`/`following` write: the target's new start and end; every occurrence moves by
   * the target's offset on the clock face, and takes the new length. Refused when the move takes
   * occurrences off the series' rule (a weekly Tuesday rule moved to Wednesdays needs new lines too).
   */
  private moveTimes(
    series: EventSeriesEntity,
    rows: EventRecord[],
    target: EventRecord,
    dto: UpdateEventDto,
    nowUtc: string,
  ): { dates: EventDates; moved: Map<number, string> } {
    const zoneName = dto.timezone?.trim() || target.details.timezone;
    const allDay = dto.all_day ?? target.details.allDay;
    const dates = eventDatesOf({ start: dto.start_date, end: dto.end_date, zoneName, allDay, stored: target.details });
    const offset = wallSeconds(target.details.startLocal, dates.startLocal);
    series.timezone = zoneName;
    series.allDay = allDay;
    series.template.lengthSeconds = wallSeconds(dates.startLocal, dates.endLocal);
    const moved = new Map<number, string>();
    if (offset !== 0) {
      series.startLocal = shiftWall(series.startLocal, offset);
      series.lines = linesMovedBy(series.lines, offset, zoneName);
      for (const row of rows) moved.set(row.post.id, shiftWall(row.details.occurrenceLocal!, offset));
      if ((dto as { recurrence?: unknown }).recurrence === undefined) {
        const rule = new Set(this.plan(series, series.lines, nowUtc).occurrences.map((o) => o.local));
        const off = rows.find((r) => !rule.has(moved.get(r.post.id)!) && r.post.status !== 'trash');
        if (off) throw RequestValidationError.of({ start_date: reason('off_series_rule') });
      }
    }
    return { dates, moved };
  }

  /** Cuts a series before `target`: the target and the later occurrences become a new series from it. */
  private async split(
    series: EventSeriesEntity,
    rows: EventRecord[],
    target: EventRecord,
  ): Promise<{ series: EventSeriesEntity; rows: EventRecord[] }> {
    const cutLocal = target.details.occurrenceLocal!;
    const cut = this.cutAt(series, cutLocal);
    const earlier = rows.filter((r) => r.details.occurrenceLocal! < cutLocal);
    const later = rows.filter((r) => r.details.occurrenceLocal! >= cutLocal);
    const lastUtc = DateTime.fromSQL(
      [...rows].sort((a, b) => (a.details.startUtc < b.details.startUtc ? -1 : 1)).at(-1)!.details.startUtc,
      { zone: 'UTC' },
    );
    const rest = Object.assign(new EventSeriesEntity(), {
      id: target.post.id,
      lines: linesFrom(series.lines, cut, lastUtc),
      timezone: series.timezone,
      startLocal: cutLocal,
      allDay: series.allDay,
      template: { ...series.template, fields: { ...series.template.fields } },
      horizonUtc: series.horizonUtc,
    });
    series.lines = linesBefore(series.lines, cut);
    series.horizonUtc = null;
    await this.series.save(series);
    await this.series.insert(rest);
    await this.series.assign(
      later.map((r) => r.post.id),
      rest.id,
    );
    for (const row of later) row.details.seriesId = rest.id;
    this.records.recordEmbeddingChanged([...earlier, ...later].map((r) => r.post));
    return { series: rest, rows: later };
  }

  private cutAt(series: EventSeriesEntity, occurrenceLocal: string) {
    return { occurrenceLocal, zone: series.timezone, allDay: series.allDay };
  }

  /** Whoever may edit (delete) the series' first occurrence may edit (delete) the series. */
  private assertMay(
    user: AuthUser | null,
    rows: EventRecord[],
    series: EventSeriesEntity,
    action: 'edit' | 'delete',
  ): void {
    const first = rows.find((r) => r.post.id === series.id) ?? rows[0];
    if (!first) return;
    const may = action === 'edit' ? postPolicy.canEdit(user, first.post) : postPolicy.canDelete(user, first.post);
    if (!may) throw new DomainError(user ? 'forbidden' : 'unauthenticated');
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

  /**
   * The write fields every occurrence shares, read from an occurrence as stored (terms and links as ids, so
   * inline objects are not made again), plus the modules' write fields among `writeFields`.
   */
  private async sharedFieldsOf(
    post: PostEntity,
    details: EventDetailsEntity,
    writeFields: object,
  ): Promise<Record<string, unknown>> {
    const taxonomies = this.eventTaxonomies.termFields();
    const links = this.links.all();
    const embeds = await this.linkedRecords.of(
      [post.id],
      links.map((l) => l.target.linkedRecordsSource),
      taxonomies.map((t) => t.taxonomy),
    );
    const terms = embeds.terms.get(post.id) ?? [];
    const fields = templateFieldsOf({ post, details });
    for (const { field, taxonomy } of taxonomies) {
      fields[field] = terms.filter((t) => t.taxonomy === taxonomy).map((t) => t.id);
    }
    for (const [index, { definition }] of links.entries()) {
      fields[definition.field] = embeds.links[index].map((l) => l.post.id);
    }
    const given = writeFields as Record<string, unknown>;
    for (const field of this.fields.all()) {
      if (field.save && given[field.name] !== undefined && seriesSharingOf(field.name) === 'template')
        fields[field.name] = given[field.name];
    }
    return fields;
  }
}
