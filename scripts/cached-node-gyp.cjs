#!/usr/bin/env node
'use strict';
// npm runs this in place of its own node-gyp (`node-gyp=` in .npmrc). better-sqlite3 has no prebuilt binary
// where its GitHub releases are out of reach, so every `npm ci` compiled SQLite from source: about 1.5 minutes
// idle and 7 on a busy machine, for each Node line. The addon a build makes is kept per package version and
// Node ABI outside the clone (`~/.cache/cal-events/native-addons`, or CAL_NATIVE_ADDON_CACHE), and the next
// `npm ci` for that ABI, in any clone, copies it instead of compiling. Anything else goes to npm's node-gyp.
const { spawnSync } = require('node:child_process');
const { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } = require('node:fs');
const { homedir } = require('node:os');
const { dirname, join } = require('node:path');

/** The packages whose build is kept: their whole output is the `.node` files of build/Release. */
const KEPT = new Set(['better-sqlite3']);

function npmNodeGyp() {
  const npmCli = process.env.npm_execpath;
  const paths = npmCli ? [dirname(dirname(npmCli))] : [];
  try {
    return require.resolve('node-gyp/bin/node-gyp.js', { paths });
  } catch {
    console.error('cached-node-gyp: npm\'s own node-gyp was not found (run npm from the project root)');
    process.exit(1);
  }
}

function runNodeGyp(args) {
  const result = spawnSync(process.execPath, [npmNodeGyp(), ...args], { stdio: 'inherit' });
  return result.status ?? 1;
}

function cacheFolder(pkg) {
  const base =
    process.env.CAL_NATIVE_ADDON_CACHE ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cal-events', 'native-addons');
  const abi = `node-v${process.versions.modules}-${process.platform}-${process.arch}`;
  return join(base, `${pkg.name}-v${pkg.version}-${abi}`);
}

function copyAddons(from, to) {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from).filter((n) => n.endsWith('.node'))) {
    copyFileSync(join(from, name), join(to, name));
  }
}

function main() {
  const args = process.argv.slice(2);
  const pkg = existsSync('package.json') ? JSON.parse(readFileSync('package.json', 'utf8')) : {};
  if (!KEPT.has(pkg.name) || args[0] !== 'rebuild') return runNodeGyp(args);
  const kept = cacheFolder(pkg);
  const release = join('build', 'Release');
  if (existsSync(kept)) {
    copyAddons(kept, release);
    console.log(`cached-node-gyp: ${pkg.name} ${pkg.version} from ${kept}`);
    return 0;
  }
  const status = runNodeGyp(args);
  if (status !== 0) return status;
  // Written beside the final name and renamed, so a parallel install never copies a half-written folder.
  const partial = `${kept}.${process.pid}`;
  try {
    copyAddons(release, partial);
    renameSync(partial, kept);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(kept)) console.warn(`cached-node-gyp: the build was not kept (${error.message})`);
  }
  return 0;
}

process.exit(main());
