#!/usr/bin/env node
// Lints a Dockerfile with dockerfile-utils (the linter of the Dockerfile language server); a warning
// fails as an error does, so the image's definition stays clean.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const file = process.argv[2] ?? 'Dockerfile';
const bin = join(__dirname, '..', 'node_modules', 'dockerfile-utils', 'bin', 'dockerfile-utils');
const result = spawnSync(process.execPath, [bin, 'lint', file], { encoding: 'utf8' });
const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
if (result.status !== 0 || output !== '') {
  process.stderr.write(`${output || `dockerfile-utils exited with ${result.status}`}\n`);
  process.exit(1);
}
// `COPY . .` sends the build context to the daemon (a remote builder, perhaps) and into the build stage's
// layers: the files that hold an operator's secrets and data must stay out of it.
const { readFileSync } = require('node:fs');
const ignoreFile = join(__dirname, '..', '.dockerignore');
const ignored = readFileSync(ignoreFile, 'utf8')
  .split('\n')
  .map((line) => line.trim());
const missing = ['.env', 'data', '*.sqlite*', '.git', 'node_modules'].filter((entry) => !ignored.includes(entry));
if (missing.length > 0) {
  process.stderr.write(`.dockerignore: must leave out ${missing.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(`${file}: no problems\n`);
