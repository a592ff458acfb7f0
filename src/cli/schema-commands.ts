import type { Command } from 'commander';
import type { Progress } from '../common/progress/progress';
import type { MigrationCommands } from '../database/migration-commands';
import type { CliOutput } from './user-commands';

export interface SchemaServices {
  migrations: MigrationCommands;
  progress: (label: string, total: number) => Progress;
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
        return {
          text: `applied (${state.applied.length}):\n${list(state.applied, '  none')}\npending (${state.pending.length}):\n${list(state.pending, '  none')}`,
          json: state,
          exitCode: state.pending.length > 0 ? 3 : 0,
        };
      }, o.json === true),
    );

  program
    .command('migrations:run')
    .description('apply pending migrations, each in its own transaction')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      run(async ({ migrations, progress }) => {
        const applied = await migrations.run(progress);
        return {
          text: applied.length === 0 ? 'schema is up to date' : `applied ${applied.length} migration(s)`,
          json: { applied },
        };
      }, o.json === true),
    );

  program
    .command('migrations:revert')
    .description('revert the newest migration (or --all of them)')
    .option('--all', 'revert every applied migration, newest first')
    .option('--json', 'print JSON')
    .action((o: { all?: boolean; json?: boolean }) =>
      run(async ({ migrations, progress }) => {
        const reverted = await migrations.revert(o.all === true ? Infinity : 1, progress);
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
        return { text: `rebuilt the listing counts and ${rebuilt.searchWords} search index rows`, json: rebuilt };
      }, o.json === true),
    );
}
