#!/usr/bin/env node
// Compiles the service (tsc) when dist/ is missing or older than a source file, so `npm run cli` and
// `npm start` run the compiled JavaScript without ts-node and without paying for a build every time.
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');
const inputs = ['src', 'examples', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

// The image ships dist/ without its sources: nothing to build there.
if (!existsSync(join(root, 'src')) && existsSync(join(root, 'dist', 'src', 'main.js'))) process.exit(0);

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const newest = Math.max(...inputs.map((input) => newestMtime(join(root, input))));
if (built >= newest && existsSync(join(root, 'dist', 'src', 'main.js'))) process.exit(0);

process.stderr.write('building (tsc -p tsconfig.build.json)…\n');
const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(stamp, `${new Date().toISOString()}\n`);
