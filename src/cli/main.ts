import 'reflect-metadata';
import { runCli } from './run-cli';

/** `npm run cli -- <command>` (or `node dist/src/cli/main.js <command>` in the image). */
runCli(process.argv, { stdout: process.stdout, stderr: process.stderr }).then(
  (code) => process.exit(code),
  () => process.exit(1),
);
