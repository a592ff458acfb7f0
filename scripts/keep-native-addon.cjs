#!/usr/bin/env node
'use strict';
// npm ci's postinstall. better-sqlite3 has no prebuilt binary where its GitHub releases are out of reach, so
// each `npm ci` compiled SQLite from source: about 1.5 minutes idle and 7 on a busy machine, per Node line.
// This keeps the addon it built outside the clone, per package version and Node ABI, named as prebuild-install
// names its downloads; .npmrc points prebuild-install at that folder, so the next `npm ci` for the same ABI, in
// any clone, unpacks it instead of compiling. A failure here never fails the install.
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, renameSync, rmSync } = require('node:fs');
const { homedir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '..');
const addon = join(root, 'node_modules', 'better-sqlite3');
const folder =
  process.env.npm_config_better_sqlite3_local_prebuilds ||
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cal-events', 'native-addons');

function keep() {
  if (!existsSync(join(addon, 'build', 'Release', 'better_sqlite3.node'))) return;
  const { version } = require(join(addon, 'package.json'));
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const target = join(folder, name);
  if (existsSync(target)) return;
  mkdirSync(folder, { recursive: true });
  // Written beside its final name and renamed, so a parallel install never unpacks half a file.
  const partial = `${target}.${process.pid}`;
  const tar = spawnSync('tar', ['-czf', partial, '-C', addon, 'build/Release/better_sqlite3.node'], { stdio: 'inherit' });
  if (tar.status === 0) renameSync(partial, target);
  else rmSync(partial, { force: true });
}

try {
  keep();
} catch (error) {
  console.warn(`keep-native-addon: the better-sqlite3 addon was not kept (${error.message})`);
}
