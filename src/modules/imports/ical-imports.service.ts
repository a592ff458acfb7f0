import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../common/http/request-context';
import { validateDto } from '../../common/validation/nested';
import { byId } from '../../core/posts/post-ref';
import { CreateEventDto, UpdateEventDto, EventWritesService, EventsQueryService, moduleIcalMembers } from '../events';
import { BoundedJobError, runBounded } from '../../common/background/bounded-worker';
import { AppConfig } from '../../config/app-config';
import type { IcalParseInput } from './ical/ical-parse.job';
import type { IcalParse, IcalRecord } from './ical/ical-records';
import { ImportLedger, isCurrent, KEPT_AS_EDITED, type KnownRecord } from './import-ledger';
import type { ImportOptions } from './dto/import-options.dto';
import { IgnoredRecords } from './options/ignored-records';
import { RunPolicy } from './options/run-policy';
import type { OverwriteRule } from './subscriptions/import-subscription.entity';
import {
  emptySummary,
  ImportCancelled,
  ImportCrashed,
  ImportError,
  throwIfCancelled,
  type ImportOutcome,
  type ImportProgress,
  type ImportSummary,
} from './import-summary';

/**
 * Imports an iCalendar feed (issue 37): every VEVENT becomes an event through the events API's own write
 * path (validation, sanitising, links found or made by name, series with their exceptions), each record in
 * its own transaction, matched on the next import by source and UID (`imported_records`): unchanged records
 * are skipped, changed ones updated, cancelled ones and those gone from the source moved to the trash.
 */
@Injectable()
export class IcalImports {
  constructor(
    private readonly writes: EventWritesService,
    private readonly reads: EventsQueryService,
    private readonly ledger: ImportLedger,
    private readonly config: AppConfig,
    private readonly ignored: IgnoredRecords,
  ) {}

  async run(
    input: {
      source: string;
      /** The feed, as text (a file the CLI read) or as the bytes a fetch gave (moved to the parse's thread). */
      text: string | Buffer;
      /** The source's options (`ImportOptionsDto`): status, categories, window, limit, ignore rules. */
      options?: ImportOptions;
      dryRun?: boolean;
      author?: string | number | null;
      overwrite?: OverwriteRule;
      /** Ends the run between two records (the subscription was deleted or disabled). */
      signal?: AbortSignal;
    },
    progress?: ImportProgress,
  ): Promise<ImportSummary> {
    const parsed = await this.parse(input.text, input.options?.categories, input.signal);
    if (!parsed.ok) throw new ImportError(parsed.problem);
    const ctx = await this.ledger.contextFor(input.author, 'import');
    const summary = emptySummary(input.source, input.dryRun === true);
    summary.failed.push(...parsed.problems.map((reason) => ({ id: '', reason })));
    try {
      await this.records(input, parsed.records, summary, ctx, progress);
    } catch (error) {
      if (!(error instanceof ImportCancelled)) throw error;
      summary.cancelled = true;
      summary.failed.push({ id: '', reason: error.message });
    }
    return summary;
  }

  private async records(
    input: { source: string; overwrite?: OverwriteRule; signal?: AbortSignal; options?: ImportOptions },
    records: IcalRecord[],
    summary: ImportSummary,
    ctx: RequestContext,
    progress?: ImportProgress,
  ): Promise<void> {
    await this.ledger.run(summary, async () => {
      const known = await this.ledger.posts(input.source);
      const policy = await RunPolicy.start(input.options ?? {}, input.source, this.ignored, summary);
      const inWindow = records.filter((record) => withinWindow(record, input.options ?? {}));
      const total = inWindow.length;
      const seen = new Set<string>();
      for (const [index, record] of inWindow.entries()) {
        throwIfCancelled(input.signal);
        if (!policy.takesEvent()) break;
        progress?.(index + 1, total);
        seen.add(record.sourceId);
        const before = known.get(record.sourceId);
        const title = typeof record.fields.title === 'string' ? record.fields.title : '';
        if (await policy.passesBy(record.sourceId, title, before)) continue;
        const hash = policy.hashOf(record.hash);
        // What did not change costs no transaction: a feed of 10,000 events is mostly that.
        if (!record.cancelled && before && isCurrent(before) && before.hash === hash) {
          summary.unchanged++;
          continue;
        }
        await this.ledger.attempt(
          summary,
          record.sourceId,
          async () => {
            if (record.cancelled && !before) {
              summary.skipped.push({ id: record.sourceId, reason: 'cancelled in the source, never imported' });
              return null;
            }
            // A cancellation is no edit to keep out: the event goes to the trash whatever was edited here.
            const edit = before && !record.cancelled && before.hash !== hash;
            if (edit && (await this.ledger.keepsLocalEdit(input.overwrite, before))) {
              summary.notes.push({ id: record.sourceId, reason: KEPT_AS_EDITED });
              return 'unchanged';
            }
            return this.importOne(input.source, record, hash, before, policy, ctx);
          },
          title,
        );
      }
      // Only a run that saw the whole feed says what left it.
      if (!policy.complete) return;
      for (const [sourceId, gone] of known) {
        throwIfCancelled(input.signal);
        if (!seen.has(sourceId) && isCurrent(gone))
          await this.ledger.attempt(summary, sourceId, () => this.trash(gone, ctx));
      }
    });
  }

  /**
   * The feed read in a worker thread, within its budget (`IMPORTS_MAX_*`, `IMPORTS_PARSE_*`): a hostile or
   * huge feed costs that thread, never the event loop that answers requests, and a parse that would
   * exhaust its heap or take too long fails the run with the reason.
   */
  private async parse(
    text: string | Buffer,
    categories: string[] | undefined,
    signal?: AbortSignal,
  ): Promise<IcalParse> {
    const { ical: limits, parse } = this.config.imports;
    try {
      return await runBounded<IcalParseInput, IcalParse>(
        'modules/imports/ical/ical-parse.job',
        {
          feed: movable(text),
          categories,
          limits,
          properties: moduleIcalMembers()
            .filter((m) => m.written)
            .map((m): [string, string] => [m.property, m.name]),
        },
        { memoryMb: parse.memoryMb, timeoutMs: parse.timeoutMs, signal, transfer: transferable(text) },
      );
    } catch (error) {
      if (error instanceof BoundedJobError && error.kind === 'cancelled') throw new ImportCancelled();
      if (error instanceof BoundedJobError) {
        const message = `the feed could not be read: its parse ${error.message}`;
        // A parse that ran out of its heap or time, or took its worker down, would do so again on the same feed.
        throw error.kind === 'failed' ? new ImportError(message) : new ImportCrashed(message);
      }
      throw error;
    }
  }

  private async importOne(
    source: string,
    record: IcalRecord,
    hash: string,
    ledgerRow: KnownRecord | undefined,
    policy: RunPolicy,
    ctx: RequestContext,
  ): Promise<ImportOutcome> {
    if (record.cancelled && ledgerRow) return this.trash(ledgerRow, ctx);
    // Gone from here for good since (a run never deletes): made anew, and the ledger's row follows it.
    const known = ledgerRow?.status === null ? undefined : ledgerRow;
    // A feed says nothing of status: published, unless the options say otherwise; back out of the trash
    // the import put it in.
    const fields = { ...record.fields, ...policy.status(known ? undefined : 'publish', known) };
    let postId: number;
    if (known) {
      await this.writes.updateRecord(byId(known.id), await validateDto(UpdateEventDto, fields), ctx, 'all');
      postId = known.id;
    } else {
      postId = (await this.writes.createRecord(await validateDto(CreateEventDto, fields), ctx)).id;
    }
    await this.applyExceptions(postId, record, ctx);
    await this.ledger.rememberPost(source, record.sourceId, postId, hash, ledgerRow);
    return known ? 'updated' : 'created';
  }

  /** A series' exceptions: each the occurrence at its RECURRENCE-ID, edited on its own or removed. */
  private async applyExceptions(seriesId: number, record: IcalRecord, ctx: RequestContext): Promise<void> {
    if (record.exceptions.length === 0) return;
    const at = await this.reads.occurrenceIdsOf(
      seriesId,
      record.exceptions.map((e) => e.occurrenceLocal),
    );
    for (const exception of record.exceptions) {
      const id = at.get(exception.occurrenceLocal);
      if (id === undefined) continue;
      if (exception.cancelled) await this.writes.delete(byId(id), false, ctx, 'this');
      else await this.writes.updateRecord(byId(id), await validateDto(UpdateEventDto, exception.fields), ctx, 'this');
    }
  }

  /** Cancelled in the feed, or gone from it: to the trash, marked as the import's doing (see `RESTORABLE`). */
  private async trash(known: KnownRecord, ctx: RequestContext): Promise<ImportOutcome> {
    if (known.status === null || known.status === 'trash') return 'unchanged';
    await this.writes.delete(byId(known.id), false, ctx, 'all');
    await this.ledger.markTrashed(known);
    return 'trashed';
  }
}

/**
 * The feed as the worker takes it: bytes that own their memory move there without a copy; a Buffer cut from
 * Node's shared pool (a small body) is copied, since moving the pool would take it from everyone.
 */
function movable(text: string | Buffer): string | Uint8Array {
  if (typeof text === 'string') return text;
  return ownsItsMemory(text) ? text : new Uint8Array(text);
}

function transferable(text: string | Buffer): ArrayBuffer[] {
  return typeof text !== 'string' && ownsItsMemory(text) ? [text.buffer as ArrayBuffer] : [];
}

function ownsItsMemory(bytes: Buffer): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
}

/**
 * Whether a VEVENT is in the options' window, read as TEC reads its list's: it ends on or after `since` and
 * starts by `until`. A series is in it when it starts by `until`: its later occurrences may fall in.
 */
function withinWindow(record: IcalRecord, { since, until }: ImportOptions): boolean {
  const day = (member: unknown) => (typeof member === 'string' ? member.slice(0, 10) : '');
  const start = day(record.fields.start_date);
  const end = day(record.fields.end_date) || start;
  const series = record.fields.recurrence !== undefined;
  return (since === undefined || series || end >= since) && (until === undefined || start <= until);
}
