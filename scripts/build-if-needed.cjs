#!/usr/bin/env node
// Compiles the service (tsc) when dist/ is missing or older than a source file, so `npm run cli` and
// `npm start` run the compiled JavaScript without ts-node and without paying for a build every time.
//
// Two starts at once (a test runner's workers, `npm start` beside the CLI) must not compile into the same
// folder together: the one that finished first would start on files the other is still rewriting. So the
// check and the build run under a lock (a folder, made atomically), and whoever waited checks again.
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');
const lock = join(root, '.build-lock');
const inputs = ['src', 'examples', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

function upToDate() {
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const newest = Math.max(...inputs.map((input) => newestMtime(join(root, input))));
  return built >= newest && existsSync(join(root, 'dist', 'src', 'main.js'));
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function ageMs(path) {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Takes the lock, waiting for a live holder; a holder that died (its pid is gone) leaves it to us. */
function acquire() {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    } catch {
      // Made but not yet written: the holder is between its two steps (or died there, long ago).
    }
    const orphaned = Number.isNaN(holder) && ageMs(lock) > 10_000;
    if (orphaned || (Number.isInteger(holder) && holder > 0 && !alive(holder))) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!told) process.stderr.write('waiting for another build of this checkout…\n');
    told = true;
    Atomics.wait(pause, 0, 0, 200);
  }
}

// The image ships dist/ without its sources: nothing to build there.
if (!existsSync(join(root, 'src')) && existsSync(join(root, 'dist', 'src', 'main.js'))) process.exit(0);
if (upToDate()) process.exit(0);

acquire();
let status = 0;
try {
  if (!upToDate()) {
    process.stderr.write('building (tsc -p tsconfig.build.json)…\n');
    const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
    const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
    status = result.status ?? 1;
    if (status === 0) writeFileSync(stamp, `${new Date().toISOString()}\n`);
  }
} finally {
  rmSync(lock, { recursive: true, force: true });
}
process.exit(status);
