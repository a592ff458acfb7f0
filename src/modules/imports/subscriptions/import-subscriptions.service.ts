import { Injectable, Logger } from '@nestjs/common';
import { In, IsNull, LessThanOrEqual } from 'typeorm';
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
import { WriteTransactions } from '../../../database/write-transactions';
import type { CreateImportDto } from '../dto/create-import.dto';
import type { UpdateImportDto } from '../dto/update-import.dto';
import { ImportSources } from '../import-sources.service';
import { reasonOf, type ImportSummary } from '../import-summary';
import { ImportRunEntity, type RunTrigger } from './import-run.entity';
import { ImportSubscriptionEntity } from './import-subscription.entity';
import { toImportObject, toRunObject, type ImportObject, type RunObject } from './import-subscription.mapper';
import { CredentialSeal } from './credential-seal';
import { ImportQueue } from './import-queue';
import { ImportRunner, type StartedRun } from './import-runner.service';

export type { StartedRun };
import { IgnoredRecords } from '../options/ignored-records';
import { mergedOptions, optionsOf, storedOptions } from './subscription-options';

const DEFAULT_INTERVAL_MINUTES = 60;
/** How long a DELETE waits for the subscription's run to stop, so that the answer shows it cancelled. */
const CANCEL_WAIT_MS = 15_000;

/**
 * Import subscriptions (issue 37), for administrators: an iCalendar feed or a TEC site imported on its
 * schedule through the same `ImportSources` the CLI uses, one run at a time per subscription (a lease), each
 * run recorded with its counts and report. URLs pass the SSRF guard when registered and on every request.
 */
@Injectable()
export class ImportSubscriptions {
  private readonly logger = new Logger(ImportSubscriptions.name);

  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly clock: DatabaseClock,
    private readonly config: AppConfig,
    private readonly sources: ImportSources,
    private readonly seal: CredentialSeal,
    private readonly queue: ImportQueue,
    private readonly runner: ImportRunner,
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
    if (dto.enabled === false) this.runner.abort(id);
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
    this.runner.abort(id);
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
    const started = await this.runner.begin(id, 'manual');
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
    const started = await this.runner.begin(id, trigger);
    // With the queue the scheduler only queues it: any instance carries it out.
    return started && (this.queue.enabled ? started.run : started.finished);
  }

  /**
   * What a run would do now (`POST …/preview`): a dry run with the subscription's options, holding its lease
   * (409 while a run goes on), its summary listing each record it would create, update or trash.
   */
  async preview(id: number): Promise<ImportSummary> {
    const summary = await this.runner.preview(await this.require(id));
    if (summary === null) throw new DomainError('import_running');
    return summary;
  }

  /** The records the subscription's source passes by, a page of them. */
  async ignoredList(id: number, page: number | undefined, perPage: number | undefined, ctx: RequestContext) {
    const sub = await this.require(id);
    return this.ignored.list(
      this.sources.sourceName(this.runner.sourceOf(sub)),
      page,
      perPage,
      `${ctx.namespaceUrl}/imports/${id}/ignored`,
    );
  }

  /** Clears the source's ignored records (or one, by its id there): the next run imports what no rule ignores. */
  async clearIgnored(id: number, sourceId?: string): Promise<{ cleared: number }> {
    const sub = await this.require(id);
    return { cleared: await this.ignored.clear(this.sources.sourceName(this.runner.sourceOf(sub)), sourceId) };
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
