import type { ImportEntry } from '../import-summary';
import type { TecSite } from './tec-site';
import { EVENT_INDEX_PATH, readEventIndex, type EventIndex } from './wp-event-index';

/**
 * TEC's lists run from now to two years ahead by default (so does this service's alias): the import asks
 * for every event from 2000 (or `since`) to the end of this century, and finds the rest by id.
 */
const LIST_FROM = '2000-01-01 00:00:00';
const LIST_TO = '2100-12-31 23:59:59';
export const EVENTS_PER_PAGE = 50;
/** Statuses of posts that are not events anyone sees: never asked for. */
const NOT_EVENTS = new Set(['trash', 'auto-draft', 'inherit']);

/** One event of the site as the import reads it, with its password when the credentials could read it. */
export interface SourceEvent {
  id: number;
  record: Record<string, unknown>;
  password: string | null;
}

export interface EventWindow {
  /** `YYYY-MM-DD`: only events from this day on. */
  since?: string;
  /** `YYYY-MM-DD`: only events that start on or before this day. */
  until?: string;
}

/** What the reading tells the run's report. */
export interface SourceReport {
  note(entry: ImportEntry): void;
  skip(entry: ImportEntry): void;
  progress(done: number, total: number): void;
}

/**
 * Every event of a TEC site an import can read: TEC's list page by page, then what the list leaves out,
 * asked for one by one. TEC's list omits events hidden from listings (even to an administrator) and shows a
 * protected event blanked; WordPress's own list of event posts (`wp-event-index.ts`) names them all, and to
 * an editor each one's password, with which TEC answers the whole event. A site without that list gets its
 * hidden events found by the ids the list skips (a bounded number of requests) and by the ids an earlier run
 * imported. `seen` ends as every event id that is there, read or not: what a complete run does not trash.
 */
export class TecEventSource {
  readonly seen = new Set<number>();

  constructor(
    private readonly site: TecSite,
    private readonly maxPages: number,
    private readonly report: SourceReport,
    private readonly window: EventWindow,
  ) {}

  /**
   * `knownIds`: the events earlier runs imported; `otherIds`: ids there that are not events (venues,
   * organizers), never asked for as events.
   */
  async *events(knownIds: Iterable<number>, otherIds: ReadonlySet<number>): AsyncGenerator<SourceEvent> {
    const index = await readEventIndex(this.site, this.maxPages);
    const indexed = 'events' in index ? index.events : null;
    let done = 0;
    const query = {
      per_page: String(EVENTS_PER_PAGE),
      start_date: this.window.since ? `${this.window.since} 00:00:00` : LIST_FROM,
      end_date: this.window.until ? `${this.window.until} 23:59:59` : LIST_TO,
    };
    for await (const page of this.site.pages('events', query)) {
      const listed = page.totalPages * EVENTS_PER_PAGE;
      for (const record of page.items) {
        const id = Number(record.id);
        this.seen.add(id);
        this.report.progress(++done, Math.max(listed, done));
        yield await this.whole(id, record, indexed?.get(id)?.password ?? null);
      }
    }
    const rest = this.notListed(index, knownIds, otherIds);
    const total = done + rest.length;
    for (const id of rest) {
      const password = indexed?.get(id)?.password ?? null;
      const answer = await this.site.event(id, password ?? undefined);
      this.report.progress(++done, total);
      if ('status' in answer) {
        if (answer.status === 404) continue;
        // There, but not to these credentials: not trashed here as gone, and said so.
        this.seen.add(id);
        this.report.skip({ id: `event:${id}`, reason: `not listed, and asked by id it answered ${answer.status}` });
        continue;
      }
      if (!this.inWindow(answer.record)) continue;
      this.seen.add(id);
      yield { id, record: answer.record, password };
    }
  }

  /** A listed event whole: a protected one TEC lists blanked, read again with its password when it is known. */
  private async whole(id: number, record: Record<string, unknown>, password: string | null): Promise<SourceEvent> {
    if (password === null || record.show_map !== null) return { id, record, password };
    const answer = await this.site.event(id, password);
    if ('record' in answer) return { id, record: answer.record, password };
    this.report.note({ id: `event:${id}`, reason: `its password did not open it (${answer.status}): as listed` });
    return { id, record, password: null };
  }

  /**
   * The ids to ask for one by one, at most one request per listed event (100 at least): what the index names
   * and the list did not show; without an index, the ids earlier runs imported (unless a window makes the
   * list partial anyway) and the gaps between the ids the list showed. Ids past that budget are counted as
   * there (never trashed as gone) and reported.
   */
  private notListed(index: EventIndex, knownIds: Iterable<number>, otherIds: ReadonlySet<number>): number[] {
    const unseen = (id: number) => !this.seen.has(id) && !otherIds.has(id);
    const budget = Math.max(100, this.seen.size);
    const windowed = this.window.since !== undefined || this.window.until !== undefined;
    let candidates: number[];
    let left = 0;
    if ('events' in index) {
      candidates = [...index.events].flatMap(([id, e]) => (unseen(id) && !NOT_EVENTS.has(e.status) ? [id] : []));
    } else {
      const known = windowed ? new Set<number>() : new Set([...knownIds].filter(unseen));
      const ids = [...this.seen].sort((a, b) => a - b);
      const gaps: number[] = [];
      for (let i = 1; i < ids.length; i++) {
        // Counted, not walked, past the budget: ids far apart cost no loop over the space between them.
        for (let id = ids[i - 1] + 1; id < ids[i]; id++) {
          if (known.size + gaps.length >= budget) {
            left += ids[i] - id;
            break;
          }
          if (unseen(id) && !known.has(id)) gaps.push(id);
        }
      }
      this.report.note({
        id: 'events',
        reason: `WordPress's list of event posts (${EVENT_INDEX_PATH}) could not be read (${index.unavailable}): events hidden from listings were looked for among the ${gaps.length} ids the list skipped`,
      });
      candidates = [...known, ...gaps];
    }
    const unasked = candidates.slice(budget);
    for (const id of unasked) this.seen.add(id);
    left += unasked.length;
    if (left > 0)
      this.report.skip({
        id: 'events',
        reason: `${left} ids the list did not show were not asked for (at most one request per listed event, 100 at least): hidden events among them were not imported, and none of them is trashed as gone`,
      });
    return candidates.slice(0, budget);
  }

  /** Whether an event read by id is in the window, read as TEC reads its list's: it ends on or after `since`, starts by `until`. */
  private inWindow(record: Record<string, unknown>): boolean {
    const day = (member: unknown) => (typeof member === 'string' ? member.slice(0, 10) : '');
    const { since, until } = this.window;
    return (
      (since === undefined || day(record.end_date) >= since) && (until === undefined || day(record.start_date) <= until)
    );
  }
}
