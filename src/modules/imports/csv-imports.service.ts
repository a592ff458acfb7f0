import { Injectable } from '@nestjs/common';
import { BoundedJobError, runBounded } from '../../common/background/bounded-worker';
import type { RequestContext } from '../../common/http/request-context';
import {
  documentedProperties,
  documentedSchema,
  type DocumentedSchema,
} from '../../common/validation/documented-properties';
import { validateDto } from '../../common/validation/nested';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { translateReason } from '../../common/validation/validation-messages';
import { byId } from '../../core/posts/post-ref';
import { Not } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { PostEntity } from '../../core/posts/post.entity';
import { DatabaseContext } from '../../database/database-context';
import { CreateEventDto, EventLinkRegistry, EventWritesService, UpdateEventDto } from '../events';
import { TEC_CSV_LAYOUTS } from './csv/csv-columns';
import type { CsvParseInput } from './csv/csv-parse.job';
import type { CsvParse, CsvRecord } from './csv/csv-rows';
import type { DayOrder } from './csv/csv-values';
import type { ImportOptions } from './dto/import-options.dto';
import { ImportLedger, isCurrent, type KnownRecord } from './import-ledger';
import {
  emptySummary,
  ImportCancelled,
  ImportError,
  throwIfCancelled,
  type ImportOutcome,
  type ImportProgress,
  type ImportSummary,
} from './import-summary';
import { IgnoredRecords } from './options/ignored-records';
import { RunPolicy } from './options/run-policy';
import { hashOf } from './tec/tec-fields';

export interface CsvImportInput {
  /** The file's bytes (moved to the parse's worker thread). */
  file: Uint8Array;
  /** `events`, or a linked type's collection (`venues`, `organizers`, a module's). */
  type: string;
  /** The file's column → a TEC column or a write field. */
  map?: Record<string, string>;
  dayOrder?: DayOrder;
  options?: ImportOptions;
  dryRun?: boolean;
  author?: string | number | null;
  signal?: AbortSignal;
}

/** How one type's records are written. */
interface CsvTarget {
  createDto: new () => object;
  updateDto: new () => object;
  nameField: string;
  create(dto: object, ctx: RequestContext): Promise<{ id: number }>;
  update(id: number, dto: object, ctx: RequestContext): Promise<unknown>;
}

/**
 * Imports a CSV of events, venues or organizers (issue 49), in TEC's layout or mapped to it: the file is read
 * in a worker thread within its budget (`IMPORTS_MAX_ROWS`, `IMPORTS_PARSE_*`) and refused whole when it
 * cannot be read; each row then goes through the type's own write path in its own transaction, matched on
 * the next import of any CSV of the type by its name (and, for an event, its start), so a re-import updates
 * what changed and duplicates nothing. A row that fails is reported by its line and column; nothing of it is
 * written. A CSV is a batch, not a feed: what a later file leaves out stays.
 */
@Injectable()
export class CsvImports {
  constructor(
    private readonly ledger: ImportLedger,
    private readonly writes: EventWritesService,
    private readonly links: EventLinkRegistry,
    private readonly ignored: IgnoredRecords,
    private readonly config: AppConfig,
    private readonly db: DatabaseContext,
  ) {}

  /** The largest file an import reads (`IMPORTS_MAX_MB`). */
  get maxBytes(): number {
    return this.config.imports.maxBytes;
  }

  /** The types a CSV may hold: events and every linked type. */
  types(): string[] {
    return ['events', ...this.links.all().map((l) => l.target.restBase)];
  }

  async run(input: CsvImportInput, progress?: ImportProgress): Promise<ImportSummary> {
    const target = this.targetOf(input.type);
    const parsed = await this.parse(input, target);
    if (!parsed.ok) throw new ImportError(parsed.problem);
    const source = `csv:${input.type}`;
    const ctx = await this.ledger.contextFor(input.author, 'import');
    const summary = emptySummary(source, input.dryRun === true);
    summary.failed.push(...parsed.problems.map((p) => ({ id: `row ${p.row}`, reason: `${p.column}: ${p.reason}` })));
    if (parsed.unused.length > 0)
      summary.notes.push({ id: 'columns', reason: `not imported (no field here): ${parsed.unused.join(', ')}` });
    try {
      await this.ledger.run(summary, async () => {
        const known = await this.ledger.posts(source);
        const policy = await RunPolicy.start(input.options ?? {}, source, this.ignored, summary);
        for (const [index, record] of parsed.records.entries()) {
          throwIfCancelled(input.signal);
          if (!policy.takesEvent()) break;
          progress?.(index + 1, parsed.records.length);
          const before = known.get(record.sourceId);
          if (await policy.passesBy(record.sourceId, record.title, before)) continue;
          const hash = policy.hashOf(hashOf(record.fields));
          if (before && isCurrent(before) && before.hash === hash) {
            summary.unchanged++;
            continue;
          }
          await this.ledger.attempt(
            summary,
            `row ${record.row}`,
            () => this.write(source, record, hash, before, policy, target, parsed.columnOf, ctx),
            record.title,
          );
        }
      });
    } catch (error) {
      if (!(error instanceof ImportCancelled)) throw error;
      summary.cancelled = true;
      summary.failed.push({ id: '', reason: error.message });
    }
    return summary;
  }

  private targetOf(type: string): CsvTarget {
    if (type === 'events')
      return {
        createDto: CreateEventDto,
        updateDto: UpdateEventDto,
        nameField: 'title',
        create: (dto, ctx) => this.writes.createRecord(dto as CreateEventDto, ctx),
        update: (id, dto, ctx) => this.writes.updateRecord(byId(id), dto, ctx, 'all'),
      };
    const link = this.links.all().find((l) => l.target.restBase === type);
    if (!link) throw new ImportError(`--type takes ${this.types().join(', ')}: there is no type "${type}" to import`);
    const { target } = link;
    return {
      createDto: target.createDto,
      updateDto: target.createDto,
      nameField: this.nameFieldOf(target.createDto),
      create: (dto, ctx) => target.create(dto, ctx),
      update: (id, dto, ctx) => target.update(byId(id), dto, ctx),
    };
  }

  /**
   * An event row's linked records by name, as TEC's CSV import links them: an existing record of that name
   * (not trashed; the oldest when several share it) by its id, else the name as a new record of the type.
   */
  private async linkByName(fields: Record<string, unknown>): Promise<void> {
    for (const { definition, target } of this.links.all()) {
      const value = fields[definition.field];
      if (value === undefined) continue;
      const items = (Array.isArray(value) ? value : [value]) as Record<string, unknown>[];
      const linked = await Promise.all(
        items.map(async (item) => {
          const name = Object.values(item)[0];
          if (typeof name !== 'string') return item;
          const found = await this.db.manager.findOne(PostEntity, {
            select: { id: true },
            where: { type: target.postType.type, title: name, status: Not('trash') },
            order: { id: 'ASC' },
          });
          return found ? found.id : item;
        }),
      );
      fields[definition.field] = Array.isArray(value) ? linked : linked[0];
    }
  }

  /** The event's link fields, each with whether it links several records and its type's name field. */
  private linkFields(): Record<string, { many: boolean; nameField: string }> {
    return Object.fromEntries(
      this.links
        .all()
        .map(({ definition, target }) => [
          definition.field,
          { many: definition.cardinality !== 'one', nameField: this.nameFieldOf(target.createDto) },
        ]),
    );
  }

  /** A linked type's name field: the field its create DTO requires (`venue`, `organizer`, a module's `speaker`). */
  private nameFieldOf(createDto: new () => object): string {
    const fields = documentedProperties(createDto);
    return (
      fields.find((name) => (documentedSchema(createDto, name) as { required?: unknown }).required === true) ??
      fields[0]
    );
  }

  /**
   * The file read in a worker thread within its budget: a hostile or huge file costs that thread, never the
   * event loop that answers requests.
   */
  private async parse(input: CsvImportInput, target: CsvTarget): Promise<CsvParse> {
    const { parse, maxRows } = this.config.imports;
    try {
      return await runBounded<CsvParseInput, CsvParse>(
        'modules/imports/csv/csv-parse.job',
        {
          file: input.file,
          options: {
            layout: TEC_CSV_LAYOUTS[input.type] ?? null,
            fieldNames: documentedProperties(target.createDto),
            nameField: target.nameField,
            links: input.type === 'events' ? this.linkFields() : {},
            kinds: kindsOf(target.createDto),
            map: input.map ?? {},
            dayOrder: input.dayOrder ?? 'ymd',
            maxRows,
          },
        },
        { memoryMb: parse.memoryMb, timeoutMs: parse.timeoutMs, signal: input.signal },
      );
    } catch (error) {
      if (error instanceof BoundedJobError && error.kind === 'cancelled') throw new ImportCancelled();
      if (error instanceof BoundedJobError)
        throw new ImportError(`the file could not be read: its parse ${error.message}`);
      throw error;
    }
  }

  private async write(
    source: string,
    record: CsvRecord,
    hash: string,
    ledgerRow: KnownRecord | undefined,
    policy: RunPolicy,
    target: CsvTarget,
    columnOf: Record<string, string>,
    ctx: RequestContext,
  ): Promise<ImportOutcome> {
    // Deleted here for good and cleared from the ignored records: made anew, the ledger's row following it.
    const known = ledgerRow?.status === null ? undefined : ledgerRow;
    const fields: Record<string, unknown> = { ...record.fields };
    if (target.nameField === 'title') {
      await this.linkByName(fields);
      Object.assign(fields, policy.status(known ? undefined : 'publish', known));
      if (policy.categories.length > 0)
        fields.categories = [...((fields.categories as unknown[] | undefined) ?? []), ...policy.categories];
    } else if (known?.status === 'trash') fields.status = 'publish';
    try {
      let postId: number;
      if (known) {
        await target.update(known.id, await validateDto(target.updateDto, fields), ctx);
        postId = known.id;
      } else postId = (await target.create(await validateDto(target.createDto, fields), ctx)).id;
      await this.ledger.rememberPost(source, record.sourceId, postId, hash, ledgerRow);
    } catch (error) {
      // The row's problem named by the file's own column.
      if (error instanceof RequestValidationError)
        throw new ImportError(
          error.problems
            .map((p) => `${columnOf[p.name] ?? p.name}: ${p.reasons.map((r) => translateReason(r, 'en')).join(', ')}`)
            .join('; '),
        );
      throw error;
    }
    return known ? 'updated' : 'created';
  }
}

/** What the DTO declares of each field: a flag, a list, or (left out) text. */
function kindsOf(dto: new () => object): Record<string, 'flag' | 'list'> {
  const kinds: Record<string, 'flag' | 'list'> = {};
  for (const name of documentedProperties(dto)) {
    const schema = documentedSchema(dto, name) as DocumentedSchema & { type?: unknown };
    if (schema.type === 'boolean') kinds[name] = 'flag';
    else if (schema.isArray) kinds[name] = 'list';
  }
  return kinds;
}
