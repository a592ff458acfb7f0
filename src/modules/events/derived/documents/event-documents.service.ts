import { createHash } from 'node:crypto';
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { PreparedRecordJson } from '../../../../common/http/prepared-json';
import { DIALECTS, type Dialect, type RequestContext } from '../../../../common/http/request-context';
import { EventFieldRegistry } from '../../extension-points/links/event-field';
import { SiteTime } from '../../../../common/dates/site-time';
import type { RecordedChange } from '../../../../database/changes/recorded-change';
import { CommitSteps } from '../../../../database/commit-steps';
import { AppConfig } from '../../../../config/app-config';
import { DatabaseContext } from '../../../../database/database-context';
import { WriteTransactions } from '../../../../database/write-transactions';
import { TermsRepository } from '../../../../core/terms/terms.repository';
import { buildIdentity } from '../../../../operations/build-identity';
import type { EventObject } from '../../model/event.mapper';
import { EventObjectsService } from '../../model/event-objects.service';
import { EVENT_POST_TYPE } from '../../model/event.post-type';
import { EventsRepository } from '../../archive/events.repository';
import type { EventRecord } from '../../model/event-record';
import { EventLinkRegistry } from '../../extension-points/links/event-links.module';
import { LinkedPostExtensionRegistry } from '../../extension-points/linked/linked-post-extension';
import { documentFills } from './document-fills';
import { FillQueue } from './fill-queue';
import { DocumentFormat } from './document-format';
import { storeDocumentBodies } from './document-bodies';
import { EventDocumentEntity } from './event-document.entity';
import { countedTermIds, renderDocument } from './event-document-template';
import { buildDocuments, representationShape, type BuiltDocument, type WithDocument } from './event-document-builder';
import type { StoredEventDocument } from './stored-event-document';
import { documentsOf } from './document-reads';

/** Bumped when the way documents are stored changes (the build identity covers what they hold). */
const DOCUMENT_FORMAT = 2;
/** Events filled per background transaction. */
const FILL_BATCH = 50;
/** Events waiting for their documents, at most (a few hundred kB). */
const MAX_PENDING = 20_000;
/** Document rows invalidated per statement. */
const INVALIDATE_CHUNK = 500;

/**
 * The event read model (docs/architecture.md, "Event documents"). Reads answer from an event's stored
 * document when it has one built by this build of the service; otherwise they assemble the event as before
 * and ask for the document to be built in the background. Documents are built only for events every caller
 * sees alike (published, without a password, every linked record public), and only after a check that the
 * template, filled for a sample request, gives exactly what assembling the event for that request gives.
 */
@Injectable()
export class EventDocuments implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EventDocuments');
  /** By dialect: the TEC alias's documents are bodies of their own (`DocumentFormat.keyFor`). */
  private readonly pending = Object.fromEntries(
    DIALECTS.map((dialect) => [dialect, new FillQueue(MAX_PENDING)]),
  ) as Record<Dialect, FillQueue>;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly commitSteps: CommitSteps,
    private readonly objects: EventObjectsService,
    private readonly events: EventsRepository,
    private readonly terms: TermsRepository,
    private readonly links: EventLinkRegistry,
    private readonly extensions: LinkedPostExtensionRegistry,
    private readonly config: AppConfig,
    private readonly fields: EventFieldRegistry,
    private readonly siteTime: SiteTime,
    private readonly documentFormat: DocumentFormat,
  ) {}

  onModuleInit(): void {
    this.commitSteps.add((changes) => this.keepInStep(changes));
  }

  /** What the stored representation depends on: the build, and what this process's modules declared. */
  get format(): string {
    return this.documentFormat.key;
  }

  /** The format of a dialect's bodies. */
  formatOf(dialect: Dialect): string {
    return this.documentFormat.keyFor(dialect);
  }

  /**
   * Link types and extensions register while modules initialise; the format names them all. Their code is in
   * the build identity (the whole build, not hand-picked functions); what a process loaded of it (which
   * extensions, which fields) and a sample of the representation as configured are named here.
   */
  async onApplicationBootstrap(): Promise<void> {
    const parts = [
      DOCUMENT_FORMAT,
      buildIdentity(),
      await representationShape(this.objects),
      ...this.links.all().map(({ definition }) => `${definition.field}:${definition.cardinality}`),
      ...this.extensions.all().map((e) => `${e.type}:${e.constructor.name}`),
      ...this.fields.all().map((f) => `${f.name}:${f.dependsOnCaller === true}:${f.constructor.name}`),
    ];
    await this.documentFormat.adopt(createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    await this.settled();
  }

  /** Resolves once every fill asked for so far has run. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * The commit step: a new event gets its (empty) row; every other event the write changed, itself or
   * through what it embeds, loses its bodies and moves to a new generation.
   */
  private async keepInStep(changes: readonly RecordedChange[]): Promise<void> {
    const created: number[] = [];
    const changed: number[] = [];
    for (const change of changes) {
      if (change.resource !== EVENT_POST_TYPE.noun) continue;
      (change.action === 'created' ? created : changed).push(change.resourceId);
    }
    if (created.length > 0) {
      await this.db.insertOnly(
        EventDocumentEntity,
        created.map((postId) => ({
          postId,
          generation: 0,
          format: null,
          objectJson: null,
          jsonLd: null,
          validUntilUtc: null,
        })),
      );
    }
    for (let start = 0; start < changed.length; start += INVALIDATE_CHUNK) {
      await this.db.manager
        .createQueryBuilder()
        .update(EventDocumentEntity)
        .set({ generation: () => 'generation + 1', format: null, objectJson: null, jsonLd: null, validUntilUtc: null })
        .where('post_id IN (:...ids)', { ids: changed.slice(start, start + INVALIDATE_CHUNK) })
        .execute();
    }
  }

  /**
   * The list's objects in the order of `records`: from the stored documents where they serve, the rest
   * assembled (and their documents asked for).
   */
  async listObjects(records: EventRecord[], ctx: RequestContext): Promise<(EventObject | PreparedRecordJson)[]> {
    const { documents, counts } = await documentsOf(
      this.db,
      records.map((r) => r.post.id),
      this.formatOf(ctx.dialect),
    );
    const answers = new Map<number, EventObject | PreparedRecordJson>();
    const assemble: EventRecord[] = [];
    for (const record of records) {
      const { id, modifiedUtc } = record.post;
      const document = documents.get(id) ?? null;
      if (this.serves(document, ctx)) {
        answers.set(id, new PreparedRecordJson(renderDocument(document.objectJson!, ctx, counts), id, modifiedUtc));
      } else assemble.push({ ...record, document });
    }
    if (assemble.length > 0) {
      for (const { object } of await this.objects.fromRecords(assemble, ctx, () => false))
        answers.set(object.id, object);
    }
    this.fillLater(assemble, ctx.dialect);
    return records.map((r) => answers.get(r.post.id)!);
  }

  /**
   * A single read's answer from the stored document, or undefined when it has none that serves (it is then
   * asked for). The caller has already checked that this caller may read the event.
   */
  async single(record: EventRecord, ctx: RequestContext): Promise<PreparedRecordJson | undefined> {
    const document = record.document;
    if (!this.serves(document, ctx) || !document.jsonLd) {
      this.fillLater([record], ctx.dialect);
      return undefined;
    }
    const objectJson = document.objectJson!;
    const wanted = countedTermIds(objectJson);
    const read = document.termCounts;
    // Read with the document, unless the list came back cut short (then one statement more).
    const counts = read && wanted.every((id) => read.has(id)) ? read : await this.terms.countsOf(wanted);
    const body = `${objectJson.slice(0, -1)},"json_ld":${document.jsonLd}}`;
    return new PreparedRecordJson(renderDocument(body, ctx, counts), record.post.id, record.post.modifiedUtc);
  }

  /**
   * Asks for a dialect's documents of events a write or a read found without one; they are built after the
   * answer.
   */
  fillLater(records: EventRecord[], dialect: Dialect = 'cal'): void {
    if (this.closed) return;
    for (const record of records) if (this.fillable(record)) this.pending[dialect].add(record.post.id);
    if (this.pendingCount() === 0 || this.running) return;
    this.running = this.db
      .outsideRequest(() => documentFills.run(true, () => this.drain()))
      .finally(() => (this.running = null));
  }

  private serves(
    document: StoredEventDocument | null | undefined,
    ctx: RequestContext,
  ): document is StoredEventDocument {
    // `document` is the caller's dialect's (its own bodies): the alias's names taxonomies its own way.
    return (
      this.config.readFastPaths &&
      !!document?.objectJson &&
      // A module field that differs between callers was stored as the anonymous caller sees it.
      !(ctx.user && this.fields.anyDependsOnCaller) &&
      !this.expired(document)
    );
  }

  /** Whether a module field of the document has turned with the clock since it was built. */
  private expired(document: StoredEventDocument): boolean {
    return document.validUntilUtc !== null && this.siteTime.now().utc >= document.validUntilUtc;
  }

  /** The members of module fields that differ between callers: left out when documents are compared. */
  private callerFields(): string[] {
    return this.fields
      .all()
      .filter((f) => f.dependsOnCaller)
      .map((f) => f.name);
  }

  /** Events whose document may be the same for every caller, and is not built yet for this format. */
  private fillable(record: EventRecord): record is WithDocument {
    const { post, document } = record;
    if (!document || post.status !== 'publish' || post.passwordHash !== null || this.format === '') return false;
    return document.objectJson === null || this.expired(document);
  }

  private async drain(): Promise<void> {
    // After the answer that asked for it has gone out.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pendingCount() > 0 && !this.closed) {
      const dialect = DIALECTS.find((d) => this.pending[d].size > 0)!;
      const batch = this.pending[dialect].take(FILL_BATCH);
      try {
        await this.fill(batch, dialect);
      } catch (error) {
        // A later read asks again; nothing is served from a document that did not land.
        this.logger.warn(`event documents not built for ${batch.length} events: ${(error as Error).message}`);
      }
    }
  }

  private pendingCount(): number {
    return DIALECTS.reduce((sum, dialect) => sum + this.pending[dialect].size, 0);
  }

  /** Builds and stores a dialect's documents of `ids`, each for the generation it was read at. */
  private async fill(ids: number[], dialect: Dialect): Promise<void> {
    await this.store(await this.build(ids, dialect), dialect);
  }

  /** The dialect's documents of those of `ids` that may have one, built from their rows as they are now. */
  async build(ids: number[], dialect: Dialect = 'cal'): Promise<BuiltDocument[]> {
    const records = (await this.events.recordsInOrder(ids, { withDocument: true, dialect })).filter(
      (r): r is WithDocument => this.fillable(r),
    );
    return records.length === 0 ? [] : buildDocuments(this.objects, records, this.callerFields(), dialect);
  }

  /** Stores built documents as the dialect's bodies, each for the generation its rows were read at. */
  store(built: BuiltDocument[], dialect: Dialect = 'cal'): Promise<void> {
    return storeDocumentBodies(this.db, this.transactions, this.formatOf(dialect), built);
  }
}
