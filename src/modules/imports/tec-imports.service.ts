import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DomainError } from '../../common/errors/domain-error';
import type { RequestContext } from '../../common/http/request-context';
import { validateDto } from '../../common/validation/nested';
import { byId } from '../../core/posts/post-ref';
import { CreateFlatTermDto } from '../../core/terms/dto/flat-term.dto';
import { CreateHierarchicalTermDto } from '../../core/terms/dto/hierarchical-term.dto';
import { TaxonomyTermsService } from '../../core/terms/taxonomy-terms.service';
import { TaxonomyRegistry, type TaxonomyDefinition } from '../../core/terms/taxonomy.registry';
import {
  CreateEventDto,
  UpdateEventDto,
  EventWritesService,
  EventFieldRegistry,
  EventLinkRegistry,
  type EventLinkTarget,
  EventTaxonomyRegistry,
  EventChildRegistry,
  type RegisteredEventChild,
} from '../events';
import { SourceFetchError, type FetchOptions } from './fetch/source-fetch';
import type { SourceReadHook } from './source-digest';
import { ImportLedger, isCurrent, KEPT_AS_EDITED, type KnownRecord } from './import-ledger';
import type { OverwriteRule } from './subscriptions/import-subscription.entity';
import {
  emptySummary,
  ImportCancelled,
  ImportCrashed,
  reasonOf,
  throwIfCancelled,
  type ImportOutcome,
  type ImportProgress,
  type ImportSummary,
} from './import-summary';
import { eventOf, hashOf, linkedRecordOf, plainText, termOf, type TecEvent } from './tec/tec-fields';
import type { ImportOptions, SourceDeletions } from './dto/import-options.dto';
import { IgnoredRecords } from './options/ignored-records';
import { RunPolicy } from './options/run-policy';
import { TecEventSource, type EventWindow } from './tec/tec-event-source';
import { TecSite } from './tec/tec-site';

export interface TecImportInput {
  site: string;
  credentials?: { user: string; password: string } | null;
  dryRun?: boolean;
  /** The source's options (`ImportOptionsDto`): status, categories, window, limit, deletions, ignore rules. */
  options?: ImportOptions;
  /** The login or user id to write as (default: the first administrator). */
  author?: string | number | null;
  fetch: Omit<FetchOptions, 'headers' | 'conditional'>;
  /** What a run does with records edited here since they were imported (default `source_wins`). */
  overwrite?: OverwriteRule;
  /** Most pages of one list to read (`IMPORTS_MAX_PAGES`). */
  maxPages?: number;
  /** Ends the run between two requests or records (the subscription was deleted or disabled). */
  signal?: AbortSignal;
  /** Told what the run has read of the site, page by page, before the page is used; may refuse it. */
  onSourceRead?: SourceReadHook;
}

/** A linked type (venues, organizers, a module's speakers) as the import reads and writes it. */
interface LinkedKind {
  field: string;
  target: EventLinkTarget;
}

/** What the run maps and counts as it goes. */
interface Run {
  source: string;
  ctx: RequestContext;
  summary: ImportSummary;
  posts: Map<string, KnownRecord>;
  terms: Map<string, KnownRecord>;
  overwrite?: OverwriteRule;
  signal?: AbortSignal;
  /** The linked records' and terms' source ids each list showed, by field; a list the site lacks is absent. */
  listed: Map<string, Set<string>>;
  /** The linked records queued for writing in this run (a record an event embeds is written once). */
  queued: Set<string>;
  policy: RunPolicy;
}

/**
 * Moves a TEC site's calendar here (issue 37): its categories (parents first) and tags, every linked type
 * events have here (venues, organizers, the modules'), then its events page by page, each written through
 * this service's own write paths (validation, sanitising, slugs) in its own transaction and matched on the
 * next run by the site and its id there (`imported_records`, `imported_terms`), so a second run updates
 * what changed and duplicates nothing. Events gone from the site are trashed here after a complete run.
 */
@Injectable()
export class TecImports {
  constructor(
    private readonly ledger: ImportLedger,
    private readonly writes: EventWritesService,
    private readonly termsService: TaxonomyTermsService,
    private readonly taxonomies: TaxonomyRegistry,
    private readonly eventTaxonomies: EventTaxonomyRegistry,
    private readonly links: EventLinkRegistry,
    private readonly fields: EventFieldRegistry,
    private readonly children: EventChildRegistry,
    private readonly ignored: IgnoredRecords,
  ) {}

  async run(input: TecImportInput, progress?: ImportProgress): Promise<ImportSummary> {
    const site = new TecSite(
      input.site,
      input.credentials ?? null,
      { ...input.fetch, signal: input.signal },
      input.maxPages,
      input.onSourceRead,
    );
    const source = `tec:${site.siteUrl}`;
    const ctx = await this.ledger.contextFor(input.author, 'import');
    const summary = emptySummary(source, input.dryRun === true);
    await this.ledger.run(summary, async () => {
      const run: Run = {
        source,
        ctx,
        summary,
        posts: await this.ledger.posts(source),
        terms: await this.ledger.terms(source),
        overwrite: input.overwrite,
        signal: input.signal,
        listed: new Map(),
        queued: new Set(),
        policy: await RunPolicy.start(input.options ?? {}, source, this.ignored, summary),
      };
      this.ledger.track(summary, run.posts, run.terms);
      try {
        for (const { field, taxonomy } of this.eventTaxonomies.termFields())
          await this.importTerms(run, site, field, this.taxonomies.get(taxonomy));
        const kinds = this.linkedKinds();
        for (const kind of kinds) await this.importLinkedList(run, site, kind);
        const window = { since: input.options?.since, until: input.options?.until };
        const seen = await this.importEvents(run, site, kinds, window, input.maxPages, progress);
        // What follows reads what each record became here: the records queued so far are written first.
        await this.ledger.flush(run.summary);
        // Only a complete listing says which events left the site.
        if (run.policy.complete) await this.trashGone(run, seen);
        await this.ledger.flush(run.summary);
        await this.followDeletions(run, kinds, input.options?.deletions ?? 'trash');
      } catch (error) {
        // Refused as the source an earlier run crashed on: the subscription records it so.
        if (error instanceof ImportCrashed) throw error;
        // The site failed part-way (a page that is not JSON, a timeout) or the run was cancelled: what was
        // imported stays, each record whole; the next run goes on from there.
        const cancelled = input.signal?.aborted === true;
        summary.cancelled ||= cancelled;
        summary.source_failed ||= !cancelled;
        summary.failed.push({ id: '', reason: cancelled ? new ImportCancelled().message : reasonOf(error) });
      }
    });
    return summary;
  }

  private linkedKinds(): LinkedKind[] {
    return this.links.all().map(({ definition, target }) => ({ field: definition.field, target }));
  }

  /**
   * Every record of one of the site's lists; none, with a note, when the site has no such list (a type or
   * taxonomy a module adds here, which TEC does not have).
   */
  private async listOf(run: Run, site: TecSite, field: string, restBase: string, query: Record<string, string>) {
    const all: Record<string, unknown>[] = [];
    try {
      for await (const page of site.pages(restBase, query)) all.push(...page.items);
    } catch (error) {
      if (!(error instanceof SourceFetchError) || error.status !== 404 || all.length > 0) throw error;
      run.summary.skipped.push({ id: restBase, reason: `the site has no list of ${restBase} (404)` });
      return all;
    }
    run.listed.set(field, new Set(all.map((record) => `${field}:${Number(record.id)}`)));
    return all;
  }

  /** Every term of the taxonomy, empty ones too, parents before their children. */
  private async importTerms(run: Run, site: TecSite, field: string, taxonomy: TaxonomyDefinition): Promise<void> {
    const all = await this.listOf(run, site, field, taxonomy.restBase, { hide_empty: 'false' });
    const pending = new Map(all.map((term) => [Number(term.id), term]));
    const done = new Set<number>();
    while (pending.size > 0) {
      // A term whose parent is not (yet) there waits for it; one whose parent the site never listed goes top-level.
      const ready = [...pending.values()].filter((t) => {
        const parent = termOf(t).parent;
        return parent === 0 || done.has(parent) || !pending.has(parent);
      });
      const batch = ready.length > 0 ? ready : [...pending.values()];
      for (const term of batch) {
        throwIfCancelled(run.signal);
        const id = Number(term.id);
        pending.delete(id);
        done.add(id);
        const { fields, parent } = termOf(term);
        const known = run.terms.get(`${field}:${id}`);
        if (await run.policy.passesBy(`${field}:${id}`, fields.name, known)) continue;
        if (known && isCurrent(known) && known.hash === hashOf({ ...fields, parent })) {
          run.summary.unchanged++;
          continue;
        }
        await this.ledger.attempt(run.summary, `${field}:${id}`, () => this.importTerm(run, field, taxonomy, term));
      }
    }
  }

  private async importTerm(
    run: Run,
    field: string,
    taxonomy: TaxonomyDefinition,
    term: Record<string, unknown>,
  ): Promise<ImportOutcome> {
    const sourceId = `${field}:${Number(term.id)}`;
    const { fields, parent } = termOf(term);
    const parentHere = parent === 0 ? 0 : run.terms.get(`${field}:${parent}`)?.id;
    const input = { ...fields, ...(taxonomy.hierarchical ? { parent: parentHere ?? 0 } : {}) };
    const hash = hashOf({ ...fields, parent });
    const known = run.terms.get(sourceId);
    const dto = taxonomy.hierarchical ? CreateHierarchicalTermDto : CreateFlatTermDto;
    const valid = { ...(await validateDto(dto, input)), name: fields.name };
    let termId: number;
    if (known) {
      termId = (await this.termsService.update(taxonomy, known.id, valid, run.ctx)).id;
    } else {
      try {
        const created = await this.termsService.create(taxonomy, valid, run.ctx);
        termId = created.id;
        if (created.slug !== fields.slug)
          run.summary.notes.push({ id: sourceId, reason: `slug "${fields.slug}" was taken: "${created.slug}"` });
      } catch (error) {
        // A term of that name is here already (made by hand, or by another source): the import uses it.
        const existing = existingTermId(error);
        if (existing === null) throw error;
        termId = existing;
        run.summary.notes.push({ id: sourceId, reason: `matched the term ${existing} of the same name` });
      }
    }
    run.terms.set(sourceId, await this.ledger.rememberTerm(run.source, sourceId, termId, hash, known));
    return known ? 'updated' : 'created';
  }

  private async importLinkedList(run: Run, site: TecSite, kind: LinkedKind): Promise<void> {
    for (const record of await this.listOf(run, site, kind.field, kind.target.restBase, {}))
      await this.importLinked(run, kind, record);
  }

  private async importLinked(run: Run, kind: LinkedKind, record: Record<string, unknown>): Promise<void> {
    throwIfCancelled(run.signal);
    const sourceId = `${kind.field}:${Number(record.id)}`;
    const fields = linkedRecordOf(record);
    const hash = hashOf(fields);
    // A record embedded in an event is there as much as a listed one.
    run.listed.get(kind.field)?.add(sourceId);
    // Listed and embedded, or embedded in several events: written once, by the first.
    if (run.queued.has(sourceId)) return;
    const ledgerRow = run.posts.get(sourceId);
    const title = [fields[kind.field], fields.title].find((t): t is string => typeof t === 'string') ?? '';
    if (await run.policy.passesBy(sourceId, title, ledgerRow)) return;
    if (ledgerRow && isCurrent(ledgerRow) && ledgerRow.hash === hash) {
      run.summary.unchanged++;
      return;
    }
    run.queued.add(sourceId);
    await this.ledger.attempt(run.summary, sourceId, async () => {
      // Read when the record is written: its batch may have been tried again from the state before it.
      const known = run.posts.get(sourceId);
      if (known && (await this.keptAsEdited(run, sourceId, known))) return 'unchanged';
      const dto = await validateDto(kind.target.createDto, fields);
      // Deleted here for good since: made anew, and the ledger's row follows it.
      const here = known && known.status !== null ? known : undefined;
      const postId = here
        ? (await kind.target.update(byId(here.id), Object.assign(dto, restored(here, dto)), run.ctx)).id
        : (await kind.target.create(dto, run.ctx)).id;
      run.posts.set(sourceId, await this.ledger.rememberPost(run.source, sourceId, postId, hash, known));
      return known ? 'updated' : 'created';
    });
  }

  /** Every event the credentials may read (`TecEventSource`); the source ids of those that are there. */
  private async importEvents(
    run: Run,
    site: TecSite,
    kinds: LinkedKind[],
    window: EventWindow,
    maxPages: number | undefined,
    progress: ImportProgress | undefined,
  ): Promise<Set<string>> {
    const linkFields = [...kinds.map((k) => k.field), ...this.eventTaxonomies.termFields().map((t) => t.field)];
    // Modules' write fields come from a source that shows them (another instance loading the same module).
    const moduleFields = this.fields
      .all()
      .filter((f) => f.save !== undefined)
      .map((f) => f.name);
    const source = new TecEventSource(
      site,
      maxPages ?? Number.MAX_SAFE_INTEGER,
      {
        note: (entry) => run.summary.notes.push(entry),
        skip: (entry) => run.summary.skipped.push(entry),
        progress: (done, total) => progress?.(done, total),
      },
      window,
    );
    const knownIds = [...run.posts.keys()].flatMap((id) => (id.startsWith('event:') ? [Number(id.slice(6))] : []));
    const otherIds = new Set(
      [...run.posts.keys()].flatMap((id) => (id.startsWith('event:') ? [] : [Number(id.slice(id.indexOf(':') + 1))])),
    );
    for await (const { id, record, password } of source.events(knownIds, otherIds)) {
      throwIfCancelled(run.signal);
      if (!run.policy.takesEvent()) break;
      const sourceId = `event:${id}`;
      const known = run.posts.get(sourceId);
      if (await run.policy.passesBy(sourceId, plainText(record.title), known)) continue;
      // A linked record the site's lists did not show (a draft venue an event embeds) comes from the event.
      for (const kind of kinds)
        for (const embedded of embeddedRecords(record[kind.field]))
          if (!run.posts.has(`${kind.field}:${Number(embedded.id)}`)) await this.importLinked(run, kind, embedded);
          else run.listed.get(kind.field)?.add(`${kind.field}:${Number(embedded.id)}`);
      const event = eventOf(record, linkFields, moduleFields, password);
      const hash = run.policy.hashOf(hashOf(event));
      if (known && isCurrent(known) && known.hash === hash) {
        run.summary.unchanged++;
        continue;
      }
      // Modules' child records (an event's tickets) from a source that serves them (another instance with the
      // module), read before the write: no transaction waits on the site.
      const children: [RegisteredEventChild, Record<string, unknown>[]][] = [];
      for (const child of this.children.all()) {
        const records = await site.childrenOf(id, child.path);
        if (records !== null) children.push([child, records]);
      }
      await this.ledger.attempt(
        run.summary,
        sourceId,
        () => this.importEvent(run, sourceId, event, hash, children),
        typeof event.fields.title === 'string' ? event.fields.title : '',
      );
    }
    return new Set([...source.seen].map((id) => `event:${id}`));
  }

  private async importEvent(
    run: Run,
    sourceId: string,
    event: TecEvent,
    hash: string,
    children: [RegisteredEventChild, Record<string, unknown>[]][],
  ): Promise<ImportOutcome> {
    const ledgerRow = run.posts.get(sourceId);
    // Deleted here for good since: made anew, and the ledger's row follows it.
    const known = ledgerRow && ledgerRow.status !== null ? ledgerRow : undefined;
    if (known && (await this.keptAsEdited(run, sourceId, known))) return 'unchanged';
    const fields: Record<string, unknown> = { ...event.fields, ...this.linksHere(run, sourceId, event) };
    Object.assign(fields, run.policy.status(event.fields.status, known));
    if (run.policy.categories.length > 0)
      fields.categories = [...((fields.categories as unknown[] | undefined) ?? []), ...run.policy.categories];
    if (event.protectedInSource && !known && fields.password === undefined) {
      // Its password is not the source's to tell: protected here by one nobody knows until an editor sets it.
      fields.password = randomBytes(18).toString('base64url');
      run.summary.notes.push({
        id: sourceId,
        reason:
          'password-protected in the source: imported protected, with what the list showed; set its password here',
      });
    }
    // No longer protected there: nor here (source wins, docs/importing.md).
    if (known && !event.protectedInSource) fields.password = '';
    let postId: number;
    if (known) {
      await this.writes.updateRecord(byId(known.id), await validateDto(UpdateEventDto, fields), run.ctx, 'all');
      postId = known.id;
    } else {
      const created = await this.writes.createRecord(await validateDto(CreateEventDto, fields), run.ctx);
      postId = created.id;
      // A draft there has no slug yet: it gets one from its title here, as any new draft.
      if (typeof fields.slug === 'string' && fields.slug !== '' && created.slug !== fields.slug)
        run.summary.notes.push({ id: sourceId, reason: `slug "${fields.slug}" was taken: "${String(created.slug)}"` });
    }
    for (const [child, records] of children) await child.replaceAll(postId, records, run.ctx);
    run.posts.set(sourceId, await this.ledger.rememberPost(run.source, sourceId, postId, hash, ledgerRow));
    return known ? 'updated' : 'created';
  }

  /** The event's links as ids here; one to a record that did not import is left out and reported. */
  private linksHere(run: Run, sourceId: string, event: TecEvent): Record<string, unknown> {
    const fields: Record<string, unknown> = {};
    const termFields = new Set(this.eventTaxonomies.termFields().map((t) => t.field));
    for (const [field, ids] of Object.entries(event.links)) {
      const known = termFields.has(field) ? run.terms : run.posts;
      const here = ids.flatMap((id) => {
        const found = known.get(`${field}:${id}`);
        if (!found) run.summary.notes.push({ id: sourceId, reason: `its ${field} ${id} was not imported: left out` });
        return found ? [found.id] : [];
      });
      const cardinalityOne = this.links
        .all()
        .some((l) => l.definition.field === field && l.definition.cardinality === 'one');
      fields[field] = cardinalityOne ? (here[0] ?? null) : here;
    }
    return fields;
  }

  /** `keep_local_edits`: a record edited here since its last import stays as edited (noted). */
  private async keptAsEdited(run: Run, sourceId: string, known: KnownRecord): Promise<boolean> {
    if (!(await this.ledger.keepsLocalEdit(run.overwrite, known))) return false;
    run.summary.notes.push({ id: sourceId, reason: KEPT_AS_EDITED });
    return true;
  }

  private async trashGone(run: Run, seen: Set<string>): Promise<void> {
    for (const [sourceId, known] of run.posts) {
      throwIfCancelled(run.signal);
      if (!sourceId.startsWith('event:') || seen.has(sourceId) || !isCurrent(known)) continue;
      await this.ledger.attempt(run.summary, sourceId, async () => {
        await this.writes.delete(byId(known.id), false, run.ctx, 'all');
        await this.ledger.markTrashed(known);
        return 'trashed';
      });
    }
  }

  /**
   * Venues, organizers (any linked type) and terms a complete list of the site no longer shows: trashed here
   * (terms deleted: they have no trash) or, with `report`, listed. A list the site does not have says nothing.
   */
  private async followDeletions(run: Run, kinds: LinkedKind[], mode: SourceDeletions): Promise<void> {
    const gone = (field: string, known: Map<string, KnownRecord>) => {
      const listed = run.listed.get(field);
      if (!listed) return [];
      return [...known].filter(([id, record]) => id.startsWith(`${field}:`) && !listed.has(id) && isCurrent(record));
    };
    const report = (sourceId: string) =>
      run.summary.notes.push({ id: sourceId, reason: 'gone from the source: left here (deletions: report)' });
    for (const kind of kinds)
      for (const [sourceId, known] of gone(kind.field, run.posts)) {
        throwIfCancelled(run.signal);
        if (mode === 'report') report(sourceId);
        else
          await this.ledger.attempt(run.summary, sourceId, async () => {
            await kind.target.delete(byId(known.id), false, run.ctx);
            await this.ledger.markTrashed(known);
            return 'trashed';
          });
      }
    for (const { field, taxonomy } of this.eventTaxonomies.termFields())
      for (const [sourceId, known] of gone(field, run.terms)) {
        throwIfCancelled(run.signal);
        if (mode === 'report') report(sourceId);
        else
          await this.ledger.attempt(run.summary, sourceId, async () => {
            await this.termsService.delete(this.taxonomies.get(taxonomy), known.id, run.ctx);
            await this.ledger.forgetTerm(known);
            run.terms.delete(sourceId);
            return 'trashed';
          });
      }
  }
}

/** A post in the trash here that its source shows again comes back (as published, if the source says no status). */
function restored(known: KnownRecord, fields: object): { status?: string } {
  return known.status === 'trash' && !('status' in fields && (fields as { status?: unknown }).status !== undefined)
    ? { status: 'publish' }
    : {};
}

function embeddedRecords(member: unknown): Record<string, unknown>[] {
  const items: unknown[] = Array.isArray(member) ? member : [member];
  return items.filter(
    (item): item is Record<string, unknown> =>
      typeof item === 'object' &&
      item !== null &&
      !Array.isArray(item) &&
      Number.isInteger((item as { id?: unknown }).id),
  );
}

function existingTermId(error: unknown): number | null {
  if (!(error instanceof DomainError) || error.key !== 'term_exists') return null;
  const data = error.options.data as { term_id?: unknown } | undefined;
  return typeof data?.term_id === 'number' ? data.term_id : null;
}
