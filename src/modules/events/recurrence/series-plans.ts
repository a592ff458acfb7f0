import { DateTime } from 'luxon';
import type { AuthUser } from '../../../auth/auth-user';
import { postPolicy } from '../../../auth/post-policy';
import { resolveZone } from '../../../common/dates/date-input';
import { wallTimeOf } from '../../../common/dates/wall-time';
import { DomainError } from '../../../common/errors/domain-error';
import { RequestValidationError } from '../../../common/validation/request-validation.error';
import { reason } from '../../../common/validation/validation-messages';
import type { WritableStatus } from '../../../core/posts/post-status';
import type { PostWriteInput } from '../../../core/posts/post-write-input';
import type { PostEntity } from '../../../core/posts/post.entity';
import type { EventDates } from '../model/event-dates';
import { eventDatesOf } from '../model/event-details-input';
import type { EventRecord } from '../model/event-record';
import type { UpdateEventDto } from '../rest/dto/update-event.dto';
import { EventSeriesEntity } from './event-series.entity';
import type { PostRecordsService } from '../../../core/posts/post-records.service';
import type { SeriesRepository } from './series.repository';
import { shiftWall, wallSeconds } from './occurrence-dates';
import { parseRecurrence } from './recurrence-lines';
import { expandSeries, type Occurrence } from './series-expansion';
import { linesBefore, linesFrom, linesMovedBy } from './series-lines-edit';

/** The post fields an occurrence takes from its model as they are stored (no second hashing or image fetch). */
export function likePost(model: PostEntity): PostWriteInput {
  return {
    status: (model.status === 'trash' ? (model.trashedFrom ?? 'draft') : model.status) as WritableStatus,
    dateUtc: model.dateUtc,
    // The model's author as stored (none when that user was deleted), whoever writes the occurrence.
    author: model.authorId,
    passwordHash: model.passwordHash,
    image: model.featuredImageId,
  };
}

/** Parsed and expanded lines: a 400 naming `recurrence` for lines that are not a series this service keeps. */
export function planSeries(
  series: EventSeriesEntity,
  lines: unknown,
  nowUtc: string,
  options: { limitFromNow?: boolean } = {},
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
    ...options,
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
export function moveSeriesTimes(
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
      const rule = new Set(planSeries(series, series.lines, nowUtc).occurrences.map((o) => o.local));
      const off = rows.find((r) => !rule.has(moved.get(r.post.id)!) && r.post.status !== 'trash');
      if (off) throw RequestValidationError.of({ start_date: reason('off_series_rule') });
    }
  }
  return { dates, moved };
}

/** Where a series is cut: at a rule time, in its zone. */
export function cutAt(series: EventSeriesEntity, occurrenceLocal: string) {
  return { occurrenceLocal, zone: series.timezone, allDay: series.allDay };
}

/** Whoever may edit (delete) the series' first occurrence may edit (delete) the series. */
export function assertMaySeries(
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

/** Cuts a series before `target`: the target and the later occurrences become a new series from it. */
export async function splitSeries(
  repository: SeriesRepository,
  records: PostRecordsService,
  series: EventSeriesEntity,
  rows: EventRecord[],
  target: EventRecord,
): Promise<{ series: EventSeriesEntity; rows: EventRecord[] }> {
  const cutLocal = target.details.occurrenceLocal!;
  const cut = cutAt(series, cutLocal);
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
  await repository.save(series);
  await repository.insert(rest);
  await repository.assign(
    later.map((r) => r.post.id),
    rest.id,
  );
  for (const row of later) row.details.seriesId = rest.id;
  records.recordEmbeddingChanged([...earlier, ...later].map((r) => r.post));
  return { series: rest, rows: later };
}
