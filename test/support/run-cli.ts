import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run-cli';
import { CapturedStream } from './captured-stream';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI run in-process with these settings over the environment, stdin not a terminal. */
export async function cliWith(overrides: Record<string, string>, ...args: string[]): Promise<CliRun> {
  const stdout = new CapturedStream();
  const stderr = new CapturedStream();
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  stdin.end('');
  const code = await runCli(['node', 'cli', ...args], {
    stdout: stdout.asWriteStream(),
    stderr: stderr.asWriteStream(),
    stdin: stdin as unknown as NodeJS.ReadStream,
    overrides,
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
