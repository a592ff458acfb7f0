import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { LessThan, Not } from 'typeorm';
import { DomainError } from '../../../common/errors/domain-error';
import { AppConfig } from '../../../config/app-config';
import { DatabaseClock } from '../../../database/database-clock';
import { DatabaseContext } from '../../../database/database-context';
import { Leases } from '../../../database/leases';
import { WriteTransactions } from '../../../database/write-transactions';
import { ImportSources, type ImportSource } from '../import-sources.service';
import {
  emptySummary,
  ImportCancelled,
  ImportCrashed,
  ImportError,
  reasonOf,
  type ImportSummary,
} from '../import-summary';
import type { SourceReadHook } from '../source-digest';
import { CredentialSeal } from './credential-seal';
import { ImportQueue, type RunJob } from './import-queue';
import { ImportRunEntity, type RunStatus, type RunTrigger } from './import-run.entity';
import { ImportSubscriptionEntity } from './import-subscription.entity';
import { toRunObject, type RunObject } from './import-subscription.mapper';
import { crashedReadingOf, failuresAfter, runEndOf, unchangedSourceRefusal } from './run-failures';
import { optionsOf } from './subscription-options';

/**
 * A run's hold on its subscription, renewed while it runs: another instance takes the subscription over this
 * long after the one running it died.
 */
const RUN_LEASE_MS = 5 * 60 * 1000;
/** What a run left `running` by an instance that died says, once the next run finds it. */
const ABANDONED = 'the instance running this import stopped before it finished';
/** What a run's report keeps of each list: a source with 10,000 bad records must not make a 10 MB row. */
const REPORT_ITEMS = 200;
/** How often a run looks whether its subscription was deleted or disabled (by any instance). */
const CANCEL_CHECK_MS = 1000;
/** How often a request waiting for a queued run (`wait=true`) looks whether it has ended. */
const FINISH_POLL_MS = 250;

/** A run that has started: its row as recorded then, and the run as it ends. */
export interface StartedRun {
  run: RunObject;
  finished: Promise<RunObject>;
}

/**
 * Carries import runs out (issue 37, 49): records each run, holds the subscription's lease while it goes on
 * (one run of it at a time among all instances), reads its source through `ImportSources` and records how it
 * ended. With `REDIS_URL` runs go through `ImportQueue`, so that another instance goes on with a run whose
 * instance died; without it, a run goes on in the process that started it.
 */
@Injectable()
export class ImportRunner implements OnApplicationBootstrap {
  private readonly logger = new Logger(ImportRunner.name);
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
    private readonly queue: ImportQueue,
  ) {}

  onApplicationBootstrap(): void {
    if (this.queue.enabled && this.config.imports.worker)
      this.queue.consume(
        (job) => this.carryOutQueued(job),
        (job, reason) => this.giveUp(job, reason),
      );
  }

  /** A run started now: as recorded, and its end; null when one runs (or, for the scheduler, it is not due). */
  begin(id: number, trigger: RunTrigger): Promise<StartedRun | null> {
    return this.queue.enabled ? this.startQueued(id, trigger) : this.start(id, trigger);
  }

  /** Stops the subscription's run going on in this process (disabled, deleted); others see it within a second. */
  abort(id: number): void {
    this.running.get(id)?.abort();
  }

  /**
   * What a run would do now: a dry run with the subscription's options, holding its lease (null while a run
   * goes on), its summary listing each record it would create, update or trash.
   */
  async preview(sub: ImportSubscriptionEntity): Promise<ImportSummary | null> {
    if (this.running.has(sub.id)) return null;
    const control = new AbortController();
    this.running.set(sub.id, control);
    try {
      return await this.leases.hold(
        `import-subscription:${sub.id}`,
        RUN_LEASE_MS,
        async () =>
          (
            await this.sources.run(this.sourceOf(sub), {
              dryRun: true,
              author: sub.authorId,
              overwrite: sub.overwrite,
              guarded: true,
              signal: control.signal,
            })
          ).summary,
      );
    } finally {
      this.running.delete(sub.id);
    }
  }

  /**
   * A run recorded and queued (with `REDIS_URL`), for whichever instance takes it; null when one is queued or
   * going on already, or, for the scheduler, when it is not due. A run left `running` whose job is gone (its
   * queue lost it) is marked crashed first.
   */
  private async startQueued(id: number, trigger: RunTrigger): Promise<StartedRun | null> {
    const sub = await this.db.manager.findOneBy(ImportSubscriptionEntity, { id });
    if (!sub) throw new DomainError('import_not_found');
    const startedUtc = await this.clock.nowSqlUtc();
    if (trigger === 'schedule' && (!sub.enabled || sub.suspendedUtc !== null || sub.nextRunUtc > startedUtc))
      return null;
    const running = await this.db.manager.findOneBy(ImportRunEntity, { subscriptionId: id, status: 'running' });
    if (running && (await this.queue.isQueued(running.id))) return null;
    const runId = await this.transactions.run(
      async () => {
        await this.abandonRunning(id, null, startedUtc);
        return this.insertRun(id, trigger, startedUtc);
      },
      { content: false },
    );
    await this.queue.add({ subscription: id, run: runId });
    const run = toRunObject(await this.db.manager.findOneByOrFail(ImportRunEntity, { id: runId }));
    return { run, finished: this.untilFinished(runId, run) };
  }

  /**
   * A queued run carried out here, holding the subscription's lease (renewed while it goes on): taken up anew
   * by another instance when this one dies, it goes on with the same run. Throws while another instance still
   * holds the lease, so that the queue tries it again a little later.
   */
  private async carryOutQueued({ subscription: id, run }: RunJob): Promise<void> {
    if (this.running.has(id)) throw new ImportError(`import ${id} is being carried out in this process: tried again`);
    const control = new AbortController();
    this.running.set(id, control);
    try {
      const done = await this.leases.hold(`import-subscription:${id}`, this.queue.lockMs, async () => {
        const row = await this.db.manager.findOneBy(ImportRunEntity, { id: run });
        const sub = await this.db.manager.findOneBy(ImportSubscriptionEntity, { id });
        if (!row || row.status !== 'running' || !sub) return true;
        await this.resealPassword(sub);
        const now = await this.clock.nowSqlUtc();
        await this.transactions.run(() => this.abandonRunning(id, run, now), { content: false });
        await this.carryOut(sub, run, control);
        return true;
      });
      if (done === null) throw new ImportError(`import ${id} is held by another instance: tried again`);
    } finally {
      this.running.delete(id);
    }
  }

  /** A queued run the queue gave up on (its instances died under it twice): crashed, as a run left running. */
  private async giveUp({ subscription: id, run }: RunJob, reason: string): Promise<void> {
    const at = await this.clock.nowSqlUtc();
    await this.transactions.run(
      async () => {
        const { affected } = await this.db.manager.update(
          ImportRunEntity,
          { id: run, status: 'running' },
          {
            status: 'failed',
            crashed: true,
            finishedUtc: at,
            report: JSON.stringify({ failed: [{ id: '', reason: `${ABANDONED} (${reason})` }] }),
          },
        );
        if (affected) await this.db.manager.increment(ImportSubscriptionEntity, { id }, 'failedRuns', 1);
      },
      { content: false },
    );
  }

  /** The run once it has ended, in whichever instance (the row polled); as last seen if it is deleted meanwhile. */
  private async untilFinished(runId: number, started: RunObject): Promise<RunObject> {
    let last = started;
    for (;;) {
      const row = await this.db.manager.findOneBy(ImportRunEntity, { id: runId });
      if (!row) return last;
      last = toRunObject(row);
      if (row.status !== 'running') return last;
      await new Promise((resolve) => setTimeout(resolve, FINISH_POLL_MS));
    }
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
        // This run holds the subscription, so a run still `running` was left by an instance that died.
        await this.abandonRunning(id, null, startedUtc);
        return this.insertRun(id, trigger, startedUtc);
      },
      { content: false },
    );
    recorded(toRunObject(await this.db.manager.findOneByOrFail(ImportRunEntity, { id: runId })));
    return this.carryOut(sub, runId, control);
  }

  /**
   * Runs still `running` but `except` were left by an instance that died (or a queue job that gave up): they
   * crashed, and count as failures of the whole run. In the caller's transaction.
   */
  private async abandonRunning(id: number, except: number | null, at: string, reason = ABANDONED): Promise<void> {
    const { affected: abandoned } = await this.db.manager.update(
      ImportRunEntity,
      { subscriptionId: id, status: 'running', ...(except === null ? {} : { id: Not(except) }) },
      {
        status: 'failed',
        crashed: true,
        finishedUtc: at,
        report: JSON.stringify({ failed: [{ id: '', reason }] }),
      },
    );
    if (abandoned) await this.db.manager.increment(ImportSubscriptionEntity, { id }, 'failedRuns', abandoned);
  }

  /** A new run's row, `running`, in the caller's transaction: its id. */
  private insertRun(id: number, trigger: RunTrigger, startedUtc: string): Promise<number> {
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
  }

  /** A recorded run carried out to its end, in whichever instance holds the subscription now. */
  private async carryOut(sub: ImportSubscriptionEntity, runId: number, control: AbortController): Promise<RunObject> {
    const id = sub.id;
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
    const ended = toRunObject(await this.db.manager.findOneByOrFail(ImportRunEntity, { id: runId }));
    // Whichever instance ends a run says so: an operator follows a run that moved between instances.
    this.logger.log(`import ${id}: run ${runId} ended ${ended.status}`);
    return ended;
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

  /** What a subscription's runs read, and with which options. */
  sourceOf(sub: ImportSubscriptionEntity): ImportSource {
    return {
      kind: sub.kind,
      url: sub.url,
      credentials: sub.sourceUser ? { user: sub.sourceUser, password: this.seal.open(sub.sourcePassword) } : null,
      options: optionsOf(sub),
    };
  }
}
