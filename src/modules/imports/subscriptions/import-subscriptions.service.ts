import { Injectable, Logger } from '@nestjs/common';
import { In, IsNull, LessThan, LessThanOrEqual } from 'typeorm';
import { DomainError } from '../../../common/errors/domain-error';
import type { RequestContext } from '../../../common/http/request-context';
import { refuseOutboundUrl } from '../../../common/net/outbound-url-guard';
import { entityListResponse } from '../../../common/pagination/entity-list';
import { resolvePageRequest, type ListResponse } from '../../../common/pagination/pagination';
import { RequestValidationError } from '../../../common/validation/request-validation.error';
import { reason } from '../../../common/validation/validation-messages';
import { AppConfig } from '../../../config/app-config';
import { DatabaseClock } from '../../../database/database-clock';
import { DatabaseContext } from '../../../database/database-context';
import { Leases } from '../../../database/leases';
import { WriteTransactions } from '../../../database/write-transactions';
import type { CreateImportDto } from '../dto/create-import.dto';
import type { UpdateImportDto } from '../dto/update-import.dto';
import { ImportSources, type ImportSource } from '../import-sources.service';
import { emptySummary, ImportCancelled, ImportCrashed, reasonOf, type ImportSummary } from '../import-summary';
import type { SourceReadHook } from '../source-digest';
import { ImportRunEntity, type RunStatus, type RunTrigger } from './import-run.entity';
import { ImportSubscriptionEntity } from './import-subscription.entity';
import { toImportObject, toRunObject, type ImportObject, type RunObject } from './import-subscription.mapper';
import { CredentialSeal } from './credential-seal';
import { IgnoredRecords } from '../options/ignored-records';
import { mergedOptions, optionsOf, storedOptions } from './subscription-options';
import { crashedReadingOf, failuresAfter, runEndOf, unchangedSourceRefusal } from './run-failures';

/**
 * A run's hold on its subscription, renewed while it runs: another instance takes the subscription over this
 * long after the one running it died.
 */
const RUN_LEASE_MS = 5 * 60 * 1000;
/** What a run left `running` by an instance that died says, once the next run finds it. */
const ABANDONED = 'the instance running this import stopped before it finished';
const DEFAULT_INTERVAL_MINUTES = 60;
/** What a run's report keeps of each list: a source with 10,000 bad records must not make a 10 MB row. */
const REPORT_ITEMS = 200;
/** How often a run looks whether its subscription was deleted or disabled (by any instance). */
const CANCEL_CHECK_MS = 1000;
/** How long a DELETE waits for the subscription's run to stop, so that the answer shows it cancelled. */
const CANCEL_WAIT_MS = 15_000;

/** A run that has started: its row as recorded then, and the run as it ends. */
export interface StartedRun {
  run: RunObject;
  finished: Promise<RunObject>;
}

/**
 * Import subscriptions (issue 37), for administrators: an iCalendar feed or a TEC site imported on its
 * schedule through the same `ImportSources` the CLI uses, one run at a time per subscription (a lease), each
 * run recorded with its counts and report. URLs pass the SSRF guard when registered and on every request.
 */
@Injectable()
export class ImportSubscriptions {
  private readonly logger = new Logger(ImportSubscriptions.name);
  /**
   * Runs going on in this process, with what stops each: the lease is per process, so it cannot keep two
   * of them apart.
   */
  private readonly running = new Map<number, AbortController>();

  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly clock: DatabaseClock,
    private readonly config: AppConfig,
    private readonly leases: Leases,
    private readonly sources: ImportSources,
    private readonly seal: CredentialSeal,
    private readonly ignored: IgnoredRecords,
  ) {}

  async list(page: number | undefined, perPage: number | undefined, ctx: RequestContext): Promise<ListResponse> {
    return entityListResponse(this.db.manager, ImportSubscriptionEntity, {
      key: 'imports',
      order: { id: 'ASC' },
      page: resolvePageRequest(page, perPage, this.config.maxPerPage),
      collectionUrl: `${ctx.namespaceUrl}/imports`,
      toItems: async (subscriptions) => {
        const lastRuns = await this.lastRuns(subscriptions.map((s) => s.id));
        return subscriptions.map((s) => toImportObject(s, lastRuns.get(s.id) ?? null, ctx.namespaceUrl));
      },
    });
  }

  async get(id: number, ctx: RequestContext): Promise<ImportObject> {
    const sub = await this.require(id);
    return toImportObject(sub, (await this.lastRuns([id])).get(id) ?? null, ctx.namespaceUrl);
  }

  async create(dto: CreateImportDto, ctx: RequestContext): Promise<ImportObject> {
    await this.assertUrl(dto.url);
    const id = await this.transactions.run(
      async () => {
        const now = await this.clock.nowSqlUtc();
        return this.db.insertReturningId(ImportSubscriptionEntity, {
          kind: dto.kind,
          url: dto.url,
          description: dto.description ?? '',
          sourceUser: dto.user || null,
          sourcePassword: dto.password ? this.seal.seal(dto.password) : null,
          ...storedOptions(mergedOptions({}, dto)),
          intervalMinutes: dto.interval_minutes ?? DEFAULT_INTERVAL_MINUTES,
          overwrite: dto.overwrite ?? 'source_wins',
          enabled: dto.enabled ?? true,
          authorId: ctx.user?.id ?? null,
          etag: null,
          lastModified: null,
          failedRuns: 0,
          suspendedReason: null,
          suspendedUtc: null,
          // Due at once: the scheduler's next round makes its first run.
          nextRunUtc: now,
          createdUtc: now,
          modifiedUtc: now,
        });
      },
      { content: false },
    );
    return this.get(id, ctx);
  }

  async update(id: number, dto: UpdateImportDto, ctx: RequestContext): Promise<ImportObject> {
    if (dto.url !== undefined) await this.assertUrl(dto.url);
    await this.transactions.run(
      async () => {
        const sub = await this.require(id);
        const changed = <K extends keyof ImportSubscriptionEntity>(
          key: K,
          value: ImportSubscriptionEntity[K] | undefined,
        ) => value !== undefined && value !== sub[key];
        if (changed('url', dto.url) || changed('kind', dto.kind) || changed('overwrite', dto.overwrite)) {
          // Another source, or another rule for what it says: the next run reads it whole, not a 304.
          sub.etag = null;
          sub.lastModified = null;
        }
        if (dto.kind !== undefined) sub.kind = dto.kind;
        if (dto.url !== undefined) sub.url = dto.url;
        if (dto.description !== undefined) sub.description = dto.description;
        if (dto.user !== undefined) sub.sourceUser = dto.user || null;
        if (dto.password !== undefined) sub.sourcePassword = dto.password ? this.seal.seal(dto.password) : null;
        Object.assign(sub, storedOptions(mergedOptions(optionsOf(sub), dto)));
        if (dto.overwrite !== undefined) sub.overwrite = dto.overwrite;
        if (dto.enabled !== undefined) sub.enabled = dto.enabled;
        if (dto.enabled === true) {
          // An administrator resumes it: the scheduler runs it again, its count of failures starts anew.
          sub.suspendedReason = null;
          sub.suspendedUtc = null;
          sub.failedRuns = 0;
        }
        if (dto.interval_minutes !== undefined) sub.intervalMinutes = dto.interval_minutes;
        sub.modifiedUtc = await this.clock.nowSqlUtc();
        await this.db.manager.save(sub);
      },
      { content: false },
    );
    // Disabled while it runs: the run stops between two records (here, or in its instance within a second).
    if (dto.enabled === false) this.running.get(id)?.abort();
    return this.get(id, ctx);
  }

  /**
   * Deletes the subscription and its runs; what it imported stays (and is no longer refreshed). A run going
   * on is stopped first (disabled, then ended between two records by whichever instance runs it), so the
   * answer shows it as `cancelled` in `last_run`.
   */
  async delete(id: number, ctx: RequestContext): Promise<ImportObject> {
    await this.require(id);
    await this.transactions.run(() => this.db.manager.update(ImportSubscriptionEntity, { id }, { enabled: false }), {
      content: false,
    });
    this.running.get(id)?.abort();
    await this.untilStopped(id);
    const before = await this.get(id, ctx);
    await this.transactions.run(() => this.db.manager.delete(ImportSubscriptionEntity, { id }), { content: false });
    return before;
  }

  /** Waits, a bounded time, until no run of the subscription is `running` (in any instance). */
  private async untilStopped(id: number): Promise<void> {
    const end = Date.now() + CANCEL_WAIT_MS;
    while (
      Date.now() < end &&
      (await this.db.manager.countBy(ImportRunEntity, { subscriptionId: id, status: 'running' })) > 0
    )
      await new Promise((resolve) => setTimeout(resolve, 100));
  }

  async runs(
    id: number,
    page: number | undefined,
    perPage: number | undefined,
    ctx: RequestContext,
  ): Promise<ListResponse> {
    await this.require(id);
    return entityListResponse(this.db.manager, ImportRunEntity, {
      key: 'runs',
      where: { subscriptionId: id },
      order: { id: 'DESC' },
      page: resolvePageRequest(page, perPage, this.config.maxPerPage),
      collectionUrl: `${ctx.namespaceUrl}/imports/${id}/runs`,
      toItems: (runs) => runs.map(toRunObject),
    });
  }

  async getRun(id: number, runId: number): Promise<RunObject> {
    await this.require(id);
    const run = await this.db.manager.findOneBy(ImportRunEntity, { id: runId, subscriptionId: id });
    if (!run) throw new DomainError('import_run_not_found');
    return toRunObject(run);
  }

  /**
   * Starts a run now, whatever its schedule (`POST …/run`; 409 while one runs): the run as recorded when it
   * started, and its end. The run goes on after the request that started it has been answered; what fails
   * later is in its report (or, when the database fails under it, in the log, and the next run marks it
   * failed).
   */
  async startNow(id: number): Promise<StartedRun> {
    await this.require(id);
    const started = await this.start(id, 'manual');
    if (started === null) throw new DomainError('import_running');
    started.finished.catch((error: unknown) =>
      this.logger.warn(`import ${id}: run ${started.run.id} did not end: ${reasonOf(error)}`),
    );
    return started;
  }

  /** The ids of enabled subscriptions due now, oldest due first. */
  async due(limit: number): Promise<number[]> {
    const now = await this.clock.nowSqlUtc();
    const due = await this.db.manager.find(ImportSubscriptionEntity, {
      select: { id: true },
      where: { enabled: true, suspendedUtc: IsNull(), nextRunUtc: LessThanOrEqual(now) },
      order: { nextRunUtc: 'ASC', id: 'ASC' },
      take: limit,
    });
    return due.map((s) => s.id);
  }

  /**
   * One run, recorded, to its end; null when another is running (in this or another instance) or, for the
   * scheduler, when another instance ran it since it was found due.
   */
  async runOnce(id: number, trigger: RunTrigger): Promise<RunObject | null> {
    const started = await this.start(id, trigger);
    return started && started.finished;
  }

  /** A run started: as soon as its row is recorded, or null when it is not to run (see `runOnce`). */
  private async start(id: number, trigger: RunTrigger): Promise<StartedRun | null> {
    if (this.running.has(id)) return null;
    const control = new AbortController();
    this.running.set(id, control);
    let recorded!: (run: RunObject) => void;
    const started = new Promise<RunObject>((resolve) => (recorded = resolve));
    const finished = this.leases
      .hold(`import-subscription:${id}`, RUN_LEASE_MS, () => this.runHolding(id, trigger, recorded, control))
      .finally(() => this.running.delete(id));
    // A run that does not start (not due, the lease held elsewhere) or fails before it is recorded ends
    // first; one that is recorded announces itself before its end.
    const run = await Promise.race([started, finished.then(() => null)]);
    return run && { run, finished: finished.then((end) => end ?? run) };
  }

  private async runHolding(
    id: number,
    trigger: RunTrigger,
    recorded: (run: RunObject) => void,
    control: AbortController,
  ): Promise<RunObject | null> {
    const sub = await this.db.manager.findOneBy(ImportSubscriptionEntity, { id });
    if (!sub) return null;
    await this.resealPassword(sub);
    const startedUtc = await this.clock.nowSqlUtc();
    if (trigger === 'schedule' && (!sub.enabled || sub.suspendedUtc !== null || sub.nextRunUtc > startedUtc))
      return null;
    const runId = await this.transactions.run(
      async () => {
        // This run holds the subscription, so a run still `running` was left by an instance that died: it
        // crashed, and counts as a failure of the whole run.
        const { affected: abandoned } = await this.db.manager.update(
          ImportRunEntity,
          { subscriptionId: id, status: 'running' },
          {
            status: 'failed',
            crashed: true,
            finishedUtc: startedUtc,
            report: JSON.stringify({ failed: [{ id: '', reason: ABANDONED }] }),
          },
        );
        if (abandoned) await this.db.manager.increment(ImportSubscriptionEntity, { id }, 'failedRuns', abandoned);
        return this.db.insertReturningId(ImportRunEntity, {
          subscriptionId: id,
          trigger,
          status: 'running',
          startedUtc,
          finishedUtc: null,
          created: 0,
          updated: 0,
          unchanged: 0,
          trashed: 0,
          sourceDigest: null,
          crashed: false,
          report: '{}',
        });
      },
      { content: false },
    );
    recorded(toRunObject(await this.db.manager.findOneByOrFail(ImportRunEntity, { id: runId })));
    const watch = this.watchForCancel(id, control);
    const { status, summary, validators, crashed } = await this.importFrom(
      sub,
      control.signal,
      await this.readingGuard(id, runId),
    ).finally(() => clearInterval(watch));
    const finishedUtc = await this.clock.nowSqlUtc();
    await this.transactions.run(
      async () => {
        // Read again: a PATCH may have resumed it, and the abandoned runs this run found were counted.
        const now = await this.db.manager.findOneBy(ImportSubscriptionEntity, { id });
        if (now) {
          const failures = failuresAfter(now, runEndOf(status, summary), this.config.imports.suspendAfter, finishedUtc);
          await this.db.manager.update(ImportSubscriptionEntity, { id }, failures);
        }
        await this.db.manager.update(
          ImportRunEntity,
          { id: runId },
          {
            status,
            crashed,
            finishedUtc,
            created: summary.created,
            updated: summary.updated,
            unchanged: summary.unchanged,
            trashed: summary.trashed,
            report: JSON.stringify({
              skipped: summary.skipped.slice(0, REPORT_ITEMS),
              notes: summary.notes.slice(0, REPORT_ITEMS),
              failed: summary.failed.slice(0, REPORT_ITEMS),
            }),
          },
        );
        await this.db.manager.update(
          ImportSubscriptionEntity,
          { id },
          {
            nextRunUtc: DatabaseClock.plus(finishedUtc, sub.intervalMinutes * 60_000),
            ...(validators ?? {}),
          },
        );
      },
      { content: false },
    );
    return this.getRun(id, runId);
  }

  /**
   * A password an older build kept readable, or one sealed with a previous key, sealed with the current key
   * the first time a run needs it.
   */
  private async resealPassword(sub: ImportSubscriptionEntity): Promise<void> {
    if (!this.seal.needsResealing(sub.sourcePassword)) return;
    sub.sourcePassword = this.seal.seal(this.seal.open(sub.sourcePassword));
    await this.transactions.run(
      () => this.db.manager.update(ImportSubscriptionEntity, { id: sub.id }, { sourcePassword: sub.sourcePassword }),
      { content: false },
    );
  }

  /**
   * Looks every second whether the subscription was deleted or disabled, by this instance or another, and
   * then stops the run: the run belongs to the instance that holds its lease, the DELETE to any.
   */
  private watchForCancel(id: number, control: AbortController): NodeJS.Timeout {
    const timer = setInterval(() => {
      this.db.manager
        .findOne(ImportSubscriptionEntity, { select: { id: true, enabled: true }, where: { id } })
        .then((sub) => {
          if (!sub?.enabled) control.abort();
        })
        .catch(() => undefined);
    }, CANCEL_CHECK_MS);
    timer.unref();
    return timer;
  }

  /**
   * What the run is told of each page it reads of its source: the reading is recorded on the run (for the
   * run after it, should this one crash), and refused when it is what the previous run crashed on.
   */
  private async readingGuard(id: number, runId: number): Promise<SourceReadHook> {
    const previous = await this.db.manager.findOne(ImportRunEntity, {
      where: { subscriptionId: id, id: LessThan(runId) },
      order: { id: 'DESC' },
    });
    const crashed = crashedReadingOf(previous);
    return async (digest) => {
      await this.transactions.run(
        () => this.db.manager.update(ImportRunEntity, { id: runId }, { sourceDigest: digest }),
        {
          content: false,
        },
      );
      if (crashed?.digest === digest) throw new ImportCrashed(unchangedSourceRefusal(crashed));
    };
  }

  /** The import itself: whatever goes wrong ends in the run's report, never as an exception. */
  private async importFrom(
    sub: ImportSubscriptionEntity,
    signal: AbortSignal,
    onSourceRead: SourceReadHook,
  ): Promise<{
    status: RunStatus;
    summary: ImportSummary;
    validators: { etag: string | null; lastModified: string | null } | null;
    crashed: boolean;
  }> {
    try {
      const outcome = await this.sources.run(this.sourceOf(sub), {
        author: sub.authorId,
        overwrite: sub.overwrite,
        guarded: true,
        conditional: sub.kind === 'ical' ? { etag: sub.etag, lastModified: sub.lastModified } : undefined,
        signal,
        onSourceRead,
      });
      const failed = outcome.summary.failed.length > 0;
      return {
        status: outcome.summary.cancelled
          ? 'cancelled'
          : outcome.notModified
            ? 'not_modified'
            : failed
              ? 'failed'
              : 'succeeded',
        summary: outcome.summary,
        // Kept only after a complete run: a 304 must not hide records that failed and are to be tried again.
        validators: failed ? null : outcome.validators,
        crashed: false,
      };
    } catch (error) {
      const summary = emptySummary(sub.url, false);
      summary.failed.push({ id: '', reason: signal.aborted ? new ImportCancelled().message : reasonOf(error) });
      summary.source_failed = !signal.aborted;
      const crashed = !signal.aborted && error instanceof ImportCrashed;
      return { status: signal.aborted ? 'cancelled' : 'failed', summary, validators: null, crashed };
    }
  }

  /**
   * What a run would do now (`POST …/preview`): a dry run with the subscription's options, holding its lease
   * (409 while a run goes on), its summary listing each record it would create, update or trash.
   */
  async preview(id: number): Promise<ImportSummary> {
    await this.require(id);
    if (this.running.has(id)) throw new DomainError('import_running');
    const control = new AbortController();
    this.running.set(id, control);
    try {
      const summary = await this.leases.hold(`import-subscription:${id}`, RUN_LEASE_MS, async () => {
        const sub = await this.require(id);
        return (
          await this.sources.run(this.sourceOf(sub), {
            dryRun: true,
            author: sub.authorId,
            overwrite: sub.overwrite,
            guarded: true,
            signal: control.signal,
          })
        ).summary;
      });
      if (summary === null) throw new DomainError('import_running');
      return summary;
    } finally {
      this.running.delete(id);
    }
  }

  /** The records the subscription's source passes by, a page of them. */
  async ignoredList(id: number, page: number | undefined, perPage: number | undefined, ctx: RequestContext) {
    const sub = await this.require(id);
    return this.ignored.list(
      this.sources.sourceName(this.sourceOf(sub)),
      page,
      perPage,
      `${ctx.namespaceUrl}/imports/${id}/ignored`,
    );
  }

  /** Clears the source's ignored records (or one, by its id there): the next run imports what no rule ignores. */
  async clearIgnored(id: number, sourceId?: string): Promise<{ cleared: number }> {
    const sub = await this.require(id);
    return { cleared: await this.ignored.clear(this.sources.sourceName(this.sourceOf(sub)), sourceId) };
  }

  private sourceOf(sub: ImportSubscriptionEntity): ImportSource {
    return {
      kind: sub.kind,
      url: sub.url,
      credentials: sub.sourceUser ? { user: sub.sourceUser, password: this.seal.open(sub.sourcePassword) } : null,
      options: optionsOf(sub),
    };
  }

  private async lastRuns(ids: number[]): Promise<Map<number, ImportRunEntity>> {
    if (ids.length === 0) return new Map();
    const latest = await this.db.manager
      .createQueryBuilder(ImportRunEntity, 'r')
      .select('MAX(r.id)', 'id')
      .where({ subscriptionId: In(ids) })
      .groupBy('r.subscription_id')
      .getRawMany<{ id: number | string }>();
    const runs = await this.db.manager.findBy(ImportRunEntity, { id: In(latest.map((r) => Number(r.id))) });
    return new Map(runs.map((r) => [r.subscriptionId, r]));
  }

  private async require(id: number): Promise<ImportSubscriptionEntity> {
    const sub = await this.db.manager.findOneBy(ImportSubscriptionEntity, { id });
    if (!sub) throw new DomainError('import_not_found');
    return sub;
  }

  private async assertUrl(url: string): Promise<void> {
    const refused = await refuseOutboundUrl(url, this.config.imports.allowPrivate, 'IMPORTS_ALLOW_PRIVATE');
    if (refused) throw RequestValidationError.of({ url: reason('refused_url', refused) });
  }
}
