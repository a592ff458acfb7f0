import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Progress } from '../common/progress/progress';
import type { IcalImports } from '../modules/imports/ical-imports.service';
import { ImportError, summaryText, type ImportProgress, type ImportSummary } from '../modules/imports/import-summary';
import type { ImportSources } from '../modules/imports/import-sources.service';
import type { CliOutput } from './user-commands';

export interface ImportCliServices {
  ical: IcalImports;
  sources: ImportSources;
  progress: (label: string, total: number) => Progress;
}

type Run = (action: (services: ImportCliServices) => Promise<CliOutput>, json: boolean) => Promise<void>;

/** A real calendar day as `YYYY-MM-DD` (any year from 1000 on): what `--since` and `--until` take. */
function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || text < '1000') return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}

/** A file's text, or an ImportError that says why there is none. */
async function fileText(location: string): Promise<{ source: string; text: string }> {
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
      run(async ({ ical, sources, progress }) => {
        const bar = progressOf(progress);
        const options = { dryRun: o.dryRun === true, author: o.as, guarded: false, progress: bar.report };
        try {
          // The operator may name any address (the API's subscriptions may not).
          if (/^https?:\/\//i.test(location))
            return outputOf(
              (await sources.run({ kind: 'ical', url: location, categories: o.category }, options)).summary,
            );
          const { source, text } = await fileText(location);
          return outputOf(await ical.run({ source, text, categories: o.category, ...options }, bar.report));
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
    .option('--until <date>', 'only events that start on or before this date (YYYY-MM-DD); nothing is trashed as gone')
    .option(
      '--deletions <rule>',
      'venues, organizers and terms gone from the site: trash (default; terms are deleted) or report',
    )
    .option('--as <login>', 'write as this user here (default: the first administrator)')
    .option('--dry-run', 'change nothing; print what an import would do')
    .option('--json', 'print JSON')
    .action(
      (
        site: string,
        o: {
          user?: string;
          password?: string;
          since?: string;
          until?: string;
          deletions?: string;
          as?: string;
          dryRun?: boolean;
          json?: boolean;
        },
      ) =>
        run(async ({ sources, progress }) => {
          if ((o.user === undefined) !== (o.password === undefined))
            throw new ImportError('--user and --password go together');
          for (const [name, value] of [
            ['--since', o.since],
            ['--until', o.until],
          ] as const)
            if (value !== undefined && !isDay(value)) throw new ImportError(`${name} takes a date as YYYY-MM-DD`);
          if (o.deletions !== undefined && o.deletions !== 'trash' && o.deletions !== 'report')
            throw new ImportError('--deletions takes trash or report');
          const bar = progressOf(progress);
          try {
            const credentials = o.user !== undefined ? { user: o.user, password: o.password ?? '' } : null;
            const outcome = await sources.run(
              { kind: 'tec', url: site, credentials, since: o.since, until: o.until, deletions: o.deletions },
              { dryRun: o.dryRun === true, author: o.as, guarded: false, progress: bar.report },
            );
            return outputOf(outcome.summary);
          } finally {
            bar.stop();
          }
        }, o.json === true),
    );
}
