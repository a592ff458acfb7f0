import type { Command } from 'commander';
import type { Progress } from '../common/progress/progress';
import type { MigrationCommands } from '../database/migration-commands';
import { describePreviews } from '../database/revert-preview';
import type { CliOutput } from './user-commands';

export interface SchemaServices {
  migrations: MigrationCommands;
  progress: (label: string, total: number) => Progress;
  /** Asks on the terminal; false when there is none to ask on. */
  confirm: (question: string) => Promise<boolean>;
}

type RunSchema = (action: (services: SchemaServices) => Promise<CliOutput>, json: boolean) => Promise<void>;

const list = (names: string[], none: string) => (names.length === 0 ? none : names.map((n) => `  ${n}`).join('\n'));

/**
 * `migrations:show|run|revert`: the schema, without the TypeORM CLI or ts-node (they work in the image);
 * `derived:rebuild`: the counts and the search index after rows were edited by hand.
 */
export function addSchemaCommands(program: Command, run: RunSchema): void {
  program
    .command('migrations:show')
    .description('list applied and pending migrations (exit code 3 when some are pending)')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      run(async ({ migrations }) => {
        const state = await migrations.state();
        const unknown =
          state.unknown.length === 0
            ? ''
            : `\nrecorded, but no loaded module declares them (is CAL_EXTENSIONS missing a module?) (${state.unknown.length}):\n${list(state.unknown, '')}`;
        return {
          text: `applied (${state.applied.length}):\n${list(state.applied, '  none')}\npending (${state.pending.length}):\n${list(state.pending, '  none')}${unknown}`,
          json: state,
          exitCode: state.pending.length > 0 ? 3 : 0,
        };
      }, o.json === true),
    );

  program
    .command('migrations:run')
    .description('apply pending migrations, each in its own transaction, then fill stale derived data')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      run(async ({ migrations, progress }) => {
        const applied = await migrations.run(progress);
        const filled = migrations.filledByRun;
        const text = applied.length === 0 ? 'schema is up to date' : `applied ${applied.length} migration(s)`;
        return {
          text: filled.length === 0 ? text : `${text}; filled derived data: ${filled.join(', ')}`,
          json: { applied, derived_filled: filled },
        };
      }, o.json === true),
    );

  program
    .command('migrations:revert')
    .description('revert the newest migration (or --all of them): names what it drops and asks first')
    .option('--all', 'revert every applied migration, newest first: drops every table and its data')
    .option('--yes', 'do not ask (needed where there is no terminal to ask on)')
    .option('--json', 'print JSON')
    .action((o: { all?: boolean; yes?: boolean; json?: boolean }) =>
      run(async ({ migrations, progress, confirm }) => {
        const count = o.all === true ? Infinity : 1;
        // Reverting drops tables, columns and their data: a person confirms what it names, a script says --yes.
        if (o.yes !== true) {
          const previews = await migrations.previewRevert(count);
          if (previews.length > 0) {
            const what = `migrations:revert${o.all ? ' --all' : ''} reverts ${previews.length} migration(s), newest first, and undoes:\n${describePreviews(previews)}\n`;
            if (!(await confirm(`${what}Type "yes" to go on: `))) {
              return {
                text: `nothing reverted. ${what}Confirm on a terminal, or add --yes.`,
                json: { reverted: [], would_revert: previews, error: 'not confirmed: add --yes' },
                exitCode: 1,
              };
            }
          }
        }
        const reverted = await migrations.revert(count, progress);
        return { text: `reverted ${reverted.length} migration(s)`, json: { reverted } };
      }, o.json === true),
    );

  program
    .command('derived:rebuild')
    .description('rebuild the listing counts and the search index from the event rows (after editing rows in SQL)')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      run(async ({ migrations }) => {
        const rebuilt = await migrations.rebuildDerived();
        const text = `rebuilt the listing counts, the event documents and ${rebuilt.stores.join(', ')} (${rebuilt.searchWords} search index rows)`;
        return { text, json: rebuilt };
      }, o.json === true),
    );
}
