import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { CommanderError } from 'commander';
import { ApplicationPasswordsService } from '../auth/application-passwords.service';
import { AuthInputError } from '../auth/auth-input.error';
import { UsersService } from '../auth/users.service';
import { CliModule } from './cli.module';
import { buildProgram, type CliOutput, type CliServices } from './user-commands';

/**
 * `npm run cli -- <command>`: user and application-password management against the configured
 * database. Plain text by default, JSON with `--json`; exit 1 on bad input, with a message on stderr.
 */
async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const run = async (action: (services: CliServices) => Promise<CliOutput>, json: boolean): Promise<void> => {
    const app = await NestFactory.createApplicationContext(CliModule.forRoot(), { logger: false });
    try {
      const output = await action({ users: app.get(UsersService), passwords: app.get(ApplicationPasswordsService) });
      process.stdout.write(`${json ? JSON.stringify(output.json, null, 2) : output.text}\n`);
    } catch (error) {
      if (!(error instanceof AuthInputError)) throw error;
      process.stderr.write(json ? `${JSON.stringify({ error: error.message })}\n` : `error: ${error.message}\n`);
      exitCode = 1;
    } finally {
      await app.close();
    }
  };
  try {
    await buildProgram(run).parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  return exitCode;
}

main(process.argv).then(
  (code) => process.exit(code),
  () => process.exit(1),
);
