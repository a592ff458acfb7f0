import { NestFactory } from '@nestjs/core';
import { Command, CommanderError } from 'commander';
import { createInterface } from 'node:readline/promises';
import { AppModule } from '../app.module';
import { applicationModules } from '../extension-modules';
import { ApplicationPasswordsService } from '../auth/application-passwords.service';
import { AuthInputError } from '../auth/auth-input.error';
import { UsersService } from '../auth/users.service';
import { startProgress } from '../common/progress/progress';
import { validateEnvironment } from '../config/env.schema';
import { lookalikeVariables, lookalikeWarning } from '../config/variable-names';
import { MigrationCommands } from '../database/migration-commands';
import { allMigrations } from '../database/module-migrations';
import { derivedStoresOf } from '../database/derived-stores';
import { CliModule } from './cli.module';
import { addSchemaCommands } from './schema-commands';
import { addUserCommands, type CliOutput } from './user-commands';
import { addWebhookCommands } from './webhook-commands';
import { addImportCommands } from './import-commands';
import { IcalImports } from '../modules/imports/ical-imports.service';
import { ImportError } from '../modules/imports/import-summary';
import { ImportSources } from '../modules/imports/import-sources.service';
import { CsvImports } from '../modules/imports/csv-imports.service';
import { IgnoredRecords } from '../modules/imports/options/ignored-records';
import { DomainError, errorMessage } from '../common/errors/domain-error';
import { WebhooksService } from '../modules/webhooks/webhooks.service';
import { WebhookWorker } from '../modules/webhooks/webhook-worker';
import { failureWithHint } from '../database/connection-failures';

export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** Where a confirmation is read (process.stdin by default); asked only when it is a terminal. */
  stdin?: NodeJS.ReadStream;
  /** Settings over the environment (tests point the CLI at their own database). */
  overrides?: Record<string, string>;
}

/**
 * The CLI's one entry point, for `dist/src/cli/main.js` and for the tests, which run it in-process:
 * user and application-password management and the schema commands. Plain text by default, JSON with
 * `--json`; exit 1 on bad input with a message on stderr, 2 on a usage error.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const print = (output: CliOutput, json: boolean) => {
    io.stdout.write(`${json ? JSON.stringify(output.json, null, 2) : output.text}\n`);
    exitCode = output.exitCode ?? 0;
  };
  const fail = (error: unknown, json: boolean) => {
    if (!(error instanceof AuthInputError)) throw error;
    io.stderr.write(json ? `${JSON.stringify({ error: error.message })}\n` : `error: ${error.message}\n`);
    exitCode = 1;
  };

  // The calendar's modules and CAL_EXTENSIONS, as the server runs them: their migrations, tables and payloads.
  const modules = async () =>
    applicationModules(validateEnvironment({ ...process.env, ...io.overrides }).CAL_EXTENSIONS);

  const program = new Command('npm run cli --')
    .description('Manage users, application passwords, webhooks and the schema of the events calendar service.')
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError()
    .exitOverride();

  addUserCommands(program, async (action, json) => {
    const app = await NestFactory.createApplicationContext(
      CliModule.forRoot({ overrides: io.overrides, modules: await modules() }),
      { logger: false },
    );
    try {
      const confirm = (question: string) => askOnTerminal(question, io);
      print(
        await action({ users: app.get(UsersService), passwords: app.get(ApplicationPasswordsService), confirm }),
        json,
      );
    } catch (error) {
      fail(error, json);
    } finally {
      await app.close();
    }
  });

  addSchemaCommands(program, async (action, json) => {
    const env = validateEnvironment({ ...process.env, ...io.overrides });
    const modules = await applicationModules(env.CAL_EXTENSIONS);
    const migrations = new MigrationCommands(env.DATABASE_URL, allMigrations(modules), derivedStoresOf(modules));
    try {
      const progress = (label: string, total: number) => startProgress(label, total, io.stderr);
      print(await action({ migrations, progress, confirm: (question) => askOnTerminal(question, io) }), json);
    } finally {
      await migrations.close();
    }
  });

  addWebhookCommands(program, async (action, json) => {
    // The whole service without its HTTP server: payloads render records as the API does.
    const app = await NestFactory.createApplicationContext(
      AppModule.forRoot({
        overrides: { ...io.overrides, WEBHOOKS_WORKER: 'false', IMPORTS_SCHEDULER: 'false', IMPORTS_WORKER: 'false' },
        modules: await modules(),
      }),
      { logger: false },
    );
    try {
      const services = {
        webhooks: app.get(WebhooksService),
        worker: app.get(WebhookWorker),
      };
      print(await action(services), json);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const message = errorMessage(error, 'en');
      io.stderr.write(json ? `${JSON.stringify({ error: message })}\n` : `error: ${message}\n`);
      exitCode = 1;
    } finally {
      await app.close();
    }
  });

  addImportCommands(program, async (action, json) => {
    // The whole service without its HTTP server and background jobs: imports write as the API does.
    const app = await NestFactory.createApplicationContext(
      AppModule.forRoot({
        overrides: { ...io.overrides, WEBHOOKS_WORKER: 'false', IMPORTS_SCHEDULER: 'false', IMPORTS_WORKER: 'false' },
        modules: await modules(),
      }),
      { logger: false },
    );
    try {
      const progress = (label: string, total: number) => startProgress(label, total, io.stderr);
      print(
        await action({
          ical: app.get(IcalImports),
          csv: app.get(CsvImports),
          sources: app.get(ImportSources),
          ignored: app.get(IgnoredRecords),
          progress,
        }),
        json,
      );
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      io.stderr.write(json ? `${JSON.stringify({ error: error.message })}\n` : `error: ${error.message}\n`);
      exitCode = 1;
    } finally {
      await app.close();
    }
  });

  // A misspelt DATABASE_URL would run a migration on the default SQLite file without a word.
  for (const lookalike of lookalikeVariables({ ...process.env, ...io.overrides })) {
    io.stderr.write(`warning: ${lookalikeWarning(lookalike)}\n`);
  }
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    io.stderr.write(`error: ${failureWithHint(error)}\n`);
    return 1;
  }
  return exitCode;
}

/** A yes/no question on the terminal (prompt on stderr, so `--json` output stays clean); false without one. */
async function askOnTerminal(question: string, io: CliIo): Promise<boolean> {
  const input = io.stdin ?? process.stdin;
  if (!input.isTTY) return false;
  const prompt = createInterface({ input, output: io.stderr });
  try {
    return (await prompt.question(question)).trim().toLowerCase() === 'yes';
  } finally {
    prompt.close();
  }
}
