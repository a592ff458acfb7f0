import type { PostRecordsService } from '../../../core/posts/post-records.service';
import type { EventRecord } from '../model/event-record';
import type { EventSeriesEntity } from './event-series.entity';
import type { SeriesRepository } from './series.repository';
import { withExdate, withoutExdate } from './series-lines-edit';

/**
 * One occurrence deleted on its own: its rule time becomes an EXDATE of the series (the series goes with its
 * last occurrence deleted for good). The others' `recurrence` changed with it.
 */
export async function excludeOccurrence(
  repository: SeriesRepository,
  records: PostRecordsService,
  series: EventSeriesEntity,
  target: EventRecord,
  force: boolean,
): Promise<void> {
  const rows = await repository.occurrences(series.id);
  const others = rows.filter((r) => r.post.id !== target.post.id);
  if (force && others.length === 0) {
    await repository.remove(series.id);
    return;
  }
  series.lines = withExdate(series.lines, target.details.occurrenceLocal ?? '', series.allDay);
  await repository.save(series);
  records.recordEmbeddingChanged(others.map((r) => r.post));
}

/** One occurrence restored from the trash on its own: the EXDATE values that name it go. */
export async function includeOccurrence(
  repository: SeriesRepository,
  records: PostRecordsService,
  series: EventSeriesEntity,
  target: EventRecord,
): Promise<void> {
  const lines = withoutExdate(series.lines, target.details.occurrenceLocal ?? '', series.timezone);
  if (lines.length === series.lines.length && lines.every((line, i) => line === series.lines[i])) return;
  series.lines = lines;
  await repository.save(series);
  const rows = await repository.occurrences(series.id);
  records.recordEmbeddingChanged(rows.filter((r) => r.post.id !== target.post.id).map((r) => r.post));
}
