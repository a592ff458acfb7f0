import type { Command } from 'commander';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Progress } from '../common/progress/progress';
import type { IcalImports } from '../modules/imports/ical-imports.service';
import type { CsvImports } from '../modules/imports/csv-imports.service';
import { ImportError, summaryText, type ImportProgress, type ImportSummary } from '../modules/imports/import-summary';
import type { ImportSources } from '../modules/imports/import-sources.service';
import type { IgnoredRecords } from '../modules/imports/options/ignored-records';
import type { CliOutput } from './user-commands';
import type { DayOrder } from '../modules/imports/csv/csv-values';
import { addDtoOptions, dtoOptionsOf } from './dto-options';
import { ImportOptionsDto } from '../modules/imports/dto/import-options.dto';

export interface ImportCliServices {
  ical: IcalImports;
  csv: CsvImports;
  sources: ImportSources;
  ignored: IgnoredRecords;
  progress: (label: string, total: number) => Progress;
}

type Run = (action: (services: ImportCliServices) => Promise<CliOutput>, json: boolean) => Promise<void>;

/** A feed file as imports name it as a source. */
const fileSource = (location: string) => `ical:file:${resolve(location)}`;

/** A file's text, or an ImportError that says why there is none. */
async function fileText(location: string): Promise<{ source: string; text: string }> {
  const path = resolve(location);
  try {
    return { source: fileSource(location), text: await readFile(path, 'utf8') };
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(`cannot read ${location}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A bar drawn once the size is known, growing with it; stopped when the import ends. */
function progressOf(start: ImportCliServices['progress']): { report: ImportProgress; stop: () => void } {
  let bar: Progress | undefined;
  let shownTotal = 0;
  return {
    report: (_done, total) => {
      bar ??= start('import', (shownTotal = total));
      if (total !== shownTotal) bar.setTotal?.((shownTotal = total));
      bar.advance();
    },
    stop: () => bar?.stop(),
  };
}

function outputOf(summary: ImportSummary): CliOutput {
  return { text: summaryText(summary), json: summary, exitCode: summary.failed.length > 0 ? 1 : 0 };
}

/** The options `import:ical` has no use for: a feed has no venues or terms of its own to delete. */
const NOT_ICAL = ['deletions'] as const;

/** `import:ical` and `import:tec`: a feed or a TEC site into the calendar, matched by source on every later run. */
export function addImportCommands(program: Command, run: Run): void {
  addDtoOptions(
    program
      .command('import:ical <file-or-url>')
      .description(
        'import the events of an iCalendar file or URL; run again to update what changed (docs/importing.md)',
      ),
    ImportOptionsDto,
    NOT_ICAL,
  )
    .option('--as <login>', 'write as this user (default: the first administrator)')
    .option('--dry-run', 'change nothing; print what an import would do, record by record')
    .option('--json', 'print JSON')
    .action((location: string, o: { as?: string; dryRun?: boolean; json?: boolean } & Record<string, unknown>) =>
      run(async ({ ical, sources, progress }) => {
        const importOptions = await dtoOptionsOf(ImportOptionsDto, o, NOT_ICAL);
        const bar = progressOf(progress);
        const options = { dryRun: o.dryRun === true, author: o.as, guarded: false, progress: bar.report };
        try {
          // The operator may name any address (the API's subscriptions may not).
          if (/^https?:\/\//i.test(location))
            return outputOf(
              (await sources.run({ kind: 'ical', url: location, options: importOptions }, options)).summary,
            );
          const { source, text } = await fileText(location);
          return outputOf(await ical.run({ source, text, options: importOptions, ...options }, bar.report));
        } finally {
          bar.stop();
        }
      }, o.json === true),
    );
  addDtoOptions(
    program
      .command('import:tec <site-url>')
      .description(
        "import a TEC site's events, venues, organizers, categories and tags from its REST API; run again to update (docs/importing.md)",
      ),
    ImportOptionsDto,
  )
    .option('--user <login>', "the TEC site's user (its events in every status that user may see)")
    .option('--password <app-password>', "that user's application password")
    .option('--as <login>', 'write as this user here (default: the first administrator)')
    .option('--dry-run', 'change nothing; print what an import would do, record by record')
    .option('--json', 'print JSON')
    .action(
      (
        site: string,
        o: { user?: string; password?: string; as?: string; dryRun?: boolean; json?: boolean } & Record<
          string,
          unknown
        >,
      ) =>
        run(async ({ sources, progress }) => {
          if ((o.user === undefined) !== (o.password === undefined))
            throw new ImportError('--user and --password go together');
          const options = await dtoOptionsOf(ImportOptionsDto, o);
          const bar = progressOf(progress);
          try {
            const credentials = o.user !== undefined ? { user: o.user, password: o.password ?? '' } : null;
            const outcome = await sources.run(
              { kind: 'tec', url: site, credentials, options },
              { dryRun: o.dryRun === true, author: o.as, guarded: false, progress: bar.report },
            );
            return outputOf(outcome.summary);
          } finally {
            bar.stop();
          }
        }, o.json === true),
    );
  program
    .command('import:ignored <kind> <source>')
    .description(
      "list the records an import source's runs do not import (ignore rules, records trashed or deleted here): tec <site>, ical <file or url>, csv <type>; --clear empties the list (docs/importing.md)",
    )
    .option('--clear', 'clear the list (or, with --id, one record): the next run imports what no rule ignores')
    .option('--id <source-id>', 'only this record, by its id in the source (event:52, a UID)')
    .option('--json', 'print JSON')
    .action((kind: string, location: string, o: { clear?: boolean; id?: string; json?: boolean }) =>
      run(async ({ sources, ignored }) => {
        if (kind !== 'tec' && kind !== 'ical' && kind !== 'csv')
          throw new ImportError('<kind> is tec, ical or csv (with the type: csv events)');
        const source =
          kind === 'csv'
            ? `csv:${location}`
            : kind === 'ical' && !/^https?:\/\//i.test(location)
              ? fileSource(location)
              : sources.sourceName({ kind, url: location });
        if (o.clear) {
          const cleared = await ignored.clear(source, o.id);
          return { text: `${source}: ${cleared} cleared`, json: { source, cleared }, exitCode: 0 };
        }
        const list = await ignored.all(source);
        const text = [
          `${source}: ${list.length} ignored`,
          ...list.map((r) => `  ${r.source_id}${r.title ? ` (${r.title})` : ''}: ${r.reason}`),
        ].join('\n');
        return { text, json: { source, ignored: list }, exitCode: 0 };
      }, o.json === true),
    );
  addDtoOptions(
    program
      .command('import:csv <file>')
      .description(
        "import a CSV of events, venues or organizers in TEC's layout (or mapped to it); run again to update (docs/importing.md)",
      ),
    ImportOptionsDto,
    NOT_ICAL,
  )
    .requiredOption('--type <type>', "what the rows are: events, venues, organizers (or a module's linked type)")
    .option(
      '--map <column=target...>',
      'the file\'s column = TEC\'s column or a write field ("Begins=Event Start Date")',
    )
    .option('--day-order <order>', 'how the file writes days: ymd (2027-03-01, the default), mdy (03/01/2027) or dmy')
    .option('--as <login>', 'write as this user (default: the first administrator)')
    .option('--dry-run', 'change nothing; print what an import would do, record by record')
    .option('--json', 'print JSON')
    .action(
      (
        file: string,
        o: { type: string; map?: string[]; dayOrder?: string; as?: string; dryRun?: boolean; json?: boolean } & Record<
          string,
          unknown
        >,
      ) =>
        run(async ({ csv, progress }) => {
          const options = await dtoOptionsOf(ImportOptionsDto, o, NOT_ICAL);
          if (o.dayOrder !== undefined && !['ymd', 'mdy', 'dmy'].includes(o.dayOrder))
            throw new ImportError('--day-order takes ymd, mdy or dmy');
          const map = Object.fromEntries(
            (o.map ?? []).map((pair) => {
              const at = pair.indexOf('=');
              if (at <= 0 || at === pair.length - 1)
                throw new ImportError(`--map takes "file column=target", not "${pair}"`);
              return [pair.slice(0, at), pair.slice(at + 1)];
            }),
          );
          const bar = progressOf(progress);
          try {
            const summary = await csv.run(
              {
                file: await fileBytes(file, csv.maxBytes),
                type: o.type,
                map,
                dayOrder: o.dayOrder as DayOrder | undefined,
                options,
                dryRun: o.dryRun === true,
                author: o.as,
              },
              bar.report,
            );
            return outputOf(summary);
          } finally {
            bar.stop();
          }
        }, o.json === true),
    );
}

/** A file's bytes, at most `maxBytes` (`IMPORTS_MAX_MB`), or an ImportError that says why there are none. */
async function fileBytes(location: string, maxBytes: number): Promise<Uint8Array> {
  try {
    const { size } = await stat(resolve(location));
    if (size > maxBytes)
      throw new ImportError(`${location} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB (IMPORTS_MAX_MB)`);
    return new Uint8Array(await readFile(resolve(location)));
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(`cannot read ${location}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
