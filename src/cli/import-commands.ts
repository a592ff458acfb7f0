import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Progress } from '../common/progress/progress';
import { ImportError, type IcalImports, type ImportSummary } from '../modules/imports/ical-imports.service';
import type { CliOutput } from './user-commands';

export interface ImportCliServices {
  ical: IcalImports;
  progress: (label: string, total: number) => Progress;
}

type Run = (action: (services: ImportCliServices) => Promise<CliOutput>, json: boolean) => Promise<void>;

/** What a file or URL given on the command line holds: the operator may name any address (issue 37). */
const FETCH_TIMEOUT_MS = 60_000;
const MAX_BYTES = 50 * 1024 * 1024;

/** The text at `location`, or an ImportError that says why there is none. */
async function textOf(location: string): Promise<{ source: string; text: string }> {
  try {
    return await read(location);
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(`cannot read ${location}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function read(location: string): Promise<{ source: string; text: string }> {
  if (/^https?:\/\//i.test(location)) {
    const res = await fetch(location, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
    if (!res.ok) throw new ImportError(`${location} answered ${res.status}`);
    const length = Number(res.headers.get('content-length') ?? 0);
    if (length > MAX_BYTES) throw new ImportError(`${location} is larger than ${MAX_BYTES} bytes`);
    const text = await res.text();
    if (text.length > MAX_BYTES) throw new ImportError(`${location} is larger than ${MAX_BYTES} bytes`);
    return { source: `ical:${location}`, text };
  }
  const path = resolve(location);
  return { source: `ical:file:${path}`, text: await readFile(path, 'utf8') };
}

function summaryText(summary: ImportSummary): string {
  const lines = [
    `${summary.dry_run ? 'dry run (nothing written): ' : ''}${summary.source}`,
    `created ${summary.created}, updated ${summary.updated}, unchanged ${summary.unchanged}, trashed ${summary.trashed}, skipped ${summary.skipped.length}, failed ${summary.failed.length}`,
    ...summary.skipped.map((s) => `  skipped ${s.id}: ${s.reason}`),
    ...summary.failed.map((f) => `  failed ${f.id || '(feed)'}: ${f.reason}`),
  ];
  return lines.join('\n');
}

/** `import:ical`: an iCalendar file or URL into the calendar, matched by UID on every later import. */
export function addImportCommands(program: Command, run: Run): void {
  program
    .command('import:ical <file-or-url>')
    .description('import the events of an iCalendar file or URL; run again to update what changed (docs/importing.md)')
    .option('--category <name...>', 'add these categories to every imported event')
    .option('--user <login>', 'write as this user (default: the first administrator)')
    .option('--dry-run', 'change nothing; print what an import would do')
    .option('--json', 'print JSON')
    .action((location: string, o: { category?: string[]; user?: string; dryRun?: boolean; json?: boolean }) =>
      run(async ({ ical, progress }) => {
        const { source, text } = await textOf(location);
        let bar: Progress | undefined;
        const summary = await ical.run(
          { source, text, categories: o.category, dryRun: o.dryRun === true, author: o.user },
          (done, total) => {
            bar ??= progress('import', total);
            bar.advance();
            if (done === total) bar.stop();
          },
        );
        return { text: summaryText(summary), json: summary, exitCode: summary.failed.length > 0 ? 1 : 0 };
      }, o.json === true),
    );
}
