import type { ImportOptions } from '../../src/modules/imports/dto/import-options.dto';
import { ImportSources } from '../../src/modules/imports/import-sources.service';
import type { TestApp } from './create-test-app';
import { cliWith } from './run-cli';

/** An import's summary as `--json` prints it. */
export interface ImportSummaryJson {
  created: number;
  updated: number;
  unchanged: number;
  trashed: number;
  skipped: { id: string; reason: string }[];
  notes: { id: string; reason: string }[];
  failed: { id: string; reason: string }[];
  preview?: { id: string; outcome: string; title?: string }[];
}

/** Runs an import command of the CLI on the app's database, `--json`: its exit, output and summary. */
export async function runImport(
  app: TestApp,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string; summary: ImportSummaryJson }> {
  const out = await cliWith(
    { DATABASE_URL: app.database.url, LOG_LEVEL: 'silent', SITE_TIMEZONE: 'UTC', ...env },
    ...args,
    '--json',
  );
  return { ...out, summary: (out.stdout ? JSON.parse(out.stdout) : null) as ImportSummaryJson };
}

/** `import:tec` of a site with an administrator's credentials, and the options given. */
export function importTec(app: TestApp, site: string, ...options: string[]) {
  return runImport(app, ['import:tec', site, '--user', 'admin', '--password', 'app password', ...options]);
}

/**
 * `import:tec` of a site with an administrator's credentials, in the app's own process (no CLI process to
 * start): for tests that run many imports; the CLI's own path is `importTec`'s.
 */
export async function importTecHere(
  app: TestApp,
  site: string,
  options: ImportOptions = {},
): Promise<ImportSummaryJson> {
  const outcome = await app.app
    .get(ImportSources)
    .run(
      { kind: 'tec', url: site, credentials: { user: 'admin', password: 'app password' }, options },
      { guarded: false },
    );
  return outcome.summary;
}
