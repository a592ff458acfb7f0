import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { toAuthUser, type AuthUser } from '../../auth/auth-user';
import { UsersService } from '../../auth/users.service';
import { Clock } from '../../common/dates/clock';
import { DomainError, errorMessage } from '../../common/errors/domain-error';
import { NAMESPACE } from '../../common/http/namespace';
import type { RequestContext } from '../../common/http/request-context';
import { validateDto } from '../../common/validation/nested';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { translateReason } from '../../common/validation/validation-messages';
import { AppConfig } from '../../config/app-config';
import { byId } from '../../core/posts/post-ref';
import { PostEntity } from '../../core/posts/post.entity';
import { DatabaseContext } from '../../database/database-context';
import { WriteTransactions } from '../../database/write-transactions';
import { CreateEventDto } from '../events/dto/create-event.dto';
import { UpdateEventDto } from '../events/dto/update-event.dto';
import { EventWritesService } from '../events/event-writes.service';
import { EventDetailsEntity } from '../events/event-details.entity';
import { readIcal, type IcalRecord } from './ical/ical-records';
import { ImportedRecordEntity } from './imported-record.entity';

/** What an import did (or, with `dryRun`, would do), record by record. */
export interface ImportSummary {
  source: string;
  dry_run: boolean;
  created: number;
  updated: number;
  unchanged: number;
  /** Cancelled in the source, or gone from it: moved to the trash here, never deleted. */
  trashed: number;
  skipped: { id: string; reason: string }[];
  failed: { id: string; reason: string }[];
}

/** Thrown inside a dry run's transaction so that nothing it wrote stays. */
class DryRunRollback extends Error {}

/** An import that cannot start: the source is not iCalendar, no user to write as. */
export class ImportError extends Error {}

/** How an import reports its progress: records done out of the total. */
export type ImportProgress = (done: number, total: number) => void;

/**
 * Imports an iCalendar feed (issue 37): every VEVENT becomes an event through the events API's own write
 * path (validation, sanitising, links found or made by name, series with their exceptions), each record in
 * its own transaction, matched on the next import by source and UID (`imported_records`): unchanged records
 * are skipped, changed ones updated, cancelled ones and those gone from the source moved to the trash.
 */
@Injectable()
export class IcalImports {
  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly writes: EventWritesService,
    private readonly users: UsersService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async run(
    input: { source: string; text: string; categories?: string[]; dryRun?: boolean; author?: string },
    progress?: ImportProgress,
  ): Promise<ImportSummary> {
    const parsed = readIcal(input.text, { categories: input.categories });
    if (!parsed.ok) throw new ImportError(parsed.problem);
    const ctx = this.contextFor(await this.actingUser(input.author));
    const summary: ImportSummary = {
      source: input.source,
      dry_run: input.dryRun === true,
      created: 0,
      updated: 0,
      unchanged: 0,
      trashed: 0,
      skipped: [],
      failed: parsed.problems.map((reason) => ({ id: '', reason })),
    };
    const known = new Map(
      (await this.db.manager.findBy(ImportedRecordEntity, { source: input.source })).map((r) => [r.sourceId, r]),
    );
    const total = parsed.records.length;
    for (const [index, record] of parsed.records.entries()) {
      const outcome = await this.attempt(summary, record.sourceId, () =>
        this.importOne(input.source, record, known.get(record.sourceId), ctx),
      );
      this.count(summary, outcome, record);
      progress?.(index + 1, total);
    }
    const seen = new Set(parsed.records.map((r) => r.sourceId));
    for (const gone of [...known.values()].filter((r) => !seen.has(r.sourceId))) {
      const outcome = await this.attempt(summary, gone.sourceId, () => this.trash(gone.postId, ctx));
      if (outcome === 'trashed') summary.trashed++;
    }
    return summary;
  }

  private count(summary: ImportSummary, outcome: Outcome, record: IcalRecord): void {
    if (outcome === 'cancelled')
      summary.skipped.push({ id: record.sourceId, reason: 'cancelled in the source, never imported' });
    else if (outcome !== 'failed') summary[outcome]++;
  }

  /**
   * One record's work in its own transaction (a dry run's rolled back at its end): its outcome, or `failed`
   * with the reason in the summary.
   */
  private async attempt(summary: ImportSummary, id: string, work: () => Promise<Outcome>): Promise<Outcome> {
    let outcome: Outcome = 'failed';
    try {
      await this.transactions.run(async () => {
        outcome = await work();
        if (summary.dry_run) throw new DryRunRollback();
      });
    } catch (error) {
      if (error instanceof DryRunRollback) return outcome;
      summary.failed.push({ id, reason: reasonOf(error) });
      return 'failed';
    }
    return outcome;
  }

  private async importOne(
    source: string,
    record: IcalRecord,
    known: ImportedRecordEntity | undefined,
    ctx: RequestContext,
  ): Promise<Outcome> {
    if (record.cancelled) return known ? this.trash(known.postId, ctx) : 'cancelled';
    if (known && known.hash === record.hash) return 'unchanged';
    let postId: number;
    if (known) {
      const post = await this.db.manager.findOneBy(PostEntity, { id: known.postId });
      // Back in the source after it left it (or was cancelled): out of the trash again.
      const fields = post?.status === 'trash' ? { ...record.fields, status: 'publish' } : record.fields;
      await this.writes.update(byId(known.postId), await validateDto(UpdateEventDto, fields), ctx, 'all');
      postId = known.postId;
    } else {
      postId = (
        await this.writes.create(await validateDto(CreateEventDto, { ...record.fields, status: 'publish' }), ctx)
      ).id;
    }
    await this.applyExceptions(postId, record, ctx);
    const row = { source, sourceId: record.sourceId, postId, hash: record.hash, importedUtc: this.clock.nowSqlUtc() };
    if (known) await this.db.manager.update(ImportedRecordEntity, { id: known.id }, row);
    else await this.db.insertOnly(ImportedRecordEntity, row);
    return known ? 'updated' : 'created';
  }

  /** A series' exceptions: each the occurrence at its RECURRENCE-ID, edited on its own or removed. */
  private async applyExceptions(seriesId: number, record: IcalRecord, ctx: RequestContext): Promise<void> {
    if (record.exceptions.length === 0) return;
    const occurrences = await this.db.manager.findBy(EventDetailsEntity, {
      seriesId,
      occurrenceLocal: In(record.exceptions.map((e) => e.occurrenceLocal)),
    });
    const at = new Map(occurrences.map((o) => [o.occurrenceLocal, o.postId]));
    for (const exception of record.exceptions) {
      const id = at.get(exception.occurrenceLocal);
      if (id === undefined) continue;
      if (exception.cancelled) await this.writes.delete(byId(id), false, ctx, 'this');
      else await this.writes.update(byId(id), await validateDto(UpdateEventDto, exception.fields), ctx, 'this');
    }
  }

  private async trash(postId: number, ctx: RequestContext): Promise<Outcome> {
    const post = await this.db.manager.findOneBy(PostEntity, { id: postId });
    if (!post || post.status === 'trash') return 'unchanged';
    await this.writes.delete(byId(postId), false, ctx, 'all');
    return 'trashed';
  }

  /** Who the import writes as: the login given, else the first administrator. */
  private async actingUser(login: string | undefined): Promise<AuthUser> {
    const user = login
      ? await this.users.findByLogin(login)
      : (await this.users.list()).find((u) => u.role === 'administrator');
    if (!user)
      throw new ImportError(login ? `no user "${login}"` : 'no administrator to import as: name one with --user');
    return toAuthUser(user);
  }

  private contextFor(user: AuthUser): RequestContext {
    const siteUrl = (this.config.publicUrl ?? `http://localhost:${this.config.port}`).replace(/\/$/, '');
    const restBase = `${siteUrl}${this.config.apiPrefix}`;
    return {
      kind: 'request-context',
      user,
      language: 'en',
      restBase,
      siteUrl,
      namespaceUrl: `${restBase}/${NAMESPACE}`,
      dialect: 'cal',
      requestId: 'import',
      clientAddress: 'import',
    };
  }
}

type Outcome = 'created' | 'updated' | 'unchanged' | 'trashed' | 'cancelled' | 'failed';

function reasonOf(error: unknown): string {
  if (error instanceof RequestValidationError) {
    return error.problems
      .map((p) => `${p.name} ${p.reasons.map((r) => translateReason(r, 'en')).join(', ')}`)
      .join('; ');
  }
  if (error instanceof DomainError) return errorMessage(error, 'en');
  return error instanceof Error ? error.message : String(error);
}
