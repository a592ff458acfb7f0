import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Progress } from '../common/progress/progress';
import { fetchSource } from '../modules/imports/fetch/source-fetch';
import type { IcalImports } from '../modules/imports/ical-imports.service';
import { ImportError, summaryText, type ImportProgress, type ImportSummary } from '../modules/imports/import-summary';
import type { TecImports } from '../modules/imports/tec-imports.service';
import type { CliOutput } from './user-commands';

export interface ImportCliServices {
  ical: IcalImports;
  tec: TecImports;
  progress: (label: string, total: number) => Progress;
}

type Run = (action: (services: ImportCliServices) => Promise<CliOutput>, json: boolean) => Promise<void>;

/** What the CLI reads: the operator may name any address (issue 37), but not wait for ever or fill memory. */
const CLI_FETCH = { guard: null, timeoutMs: 60_000, maxBytes: 50 * 1024 * 1024 };

/** The text at `location`, or an ImportError that says why there is none. */
async function textOf(location: string): Promise<{ source: string; text: string }> {
  if (/^https?:\/\//i.test(location)) {
    const { text } = await fetchSource(location, CLI_FETCH);
    return { source: `ical:${location}`, text };
  }
  const path = resolve(location);
  try {
    return { source: `ical:file:${path}`, text: await readFile(path, 'utf8') };
  } catch (error) {
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

/** `import:ical` and `import:tec`: a feed or a TEC site into the calendar, matched by source on every later run. */
export function addImportCommands(program: Command, run: Run): void {
  program
    .command('import:ical <file-or-url>')
    .description('import the events of an iCalendar file or URL; run again to update what changed (docs/importing.md)')
    .option('--category <name...>', 'add these categories to every imported event')
    .option('--as <login>', 'write as this user (default: the first administrator)')
    .option('--dry-run', 'change nothing; print what an import would do')
    .option('--json', 'print JSON')
    .action((location: string, o: { category?: string[]; as?: string; dryRun?: boolean; json?: boolean }) =>
      run(async ({ ical, progress }) => {
        const { source, text } = await textOf(location);
        const bar = progressOf(progress);
        try {
          const input = { source, text, categories: o.category, dryRun: o.dryRun === true, author: o.as };
          return outputOf(await ical.run(input, bar.report));
        } finally {
          bar.stop();
        }
      }, o.json === true),
    );
  program
    .command('import:tec <site-url>')
    .description(
      "import a TEC site's events, venues, organizers, categories and tags from its REST API; run again to update (docs/importing.md)",
    )
    .option('--user <login>', "the TEC site's user (its events in every status that user may see)")
    .option('--password <app-password>', "that user's application password")
    .option('--since <date>', 'only events from this date on (YYYY-MM-DD); nothing is trashed as gone')
    .option('--as <login>', 'write as this user here (default: the first administrator)')
    .option('--dry-run', 'change nothing; print what an import would do')
    .option('--json', 'print JSON')
    .action(
      (
        site: string,
        o: { user?: string; password?: string; since?: string; as?: string; dryRun?: boolean; json?: boolean },
      ) =>
        run(async ({ tec, progress }) => {
          if ((o.user === undefined) !== (o.password === undefined))
            throw new ImportError('--user and --password go together');
          if (o.since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(o.since))
            throw new ImportError('--since takes a date as YYYY-MM-DD');
          const bar = progressOf(progress);
          try {
            const summary = await tec.run(
              {
                site,
                credentials: o.user !== undefined ? { user: o.user, password: o.password ?? '' } : null,
                dryRun: o.dryRun === true,
                since: o.since,
                author: o.as,
                fetch: CLI_FETCH,
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
