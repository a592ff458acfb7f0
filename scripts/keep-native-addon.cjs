#!/usr/bin/env node
'use strict';
// npm ci's postinstall. better-sqlite3 has no prebuilt binary where its GitHub releases are out of reach, so
// each `npm ci` compiled SQLite from source: about 1.5 minutes idle and 7 on a busy machine, per Node line.
// prebuild-install, which better-sqlite3 runs before compiling, first looks for the binary in its download
// cache (`_prebuilds` in npm's cache folder, outside the clone). This puts the addon npm ci built there, under
// the name prebuild-install gives that download (its own functions name it), so the next `npm ci` for the same
// Node ABI, in any clone on the machine, unpacks it instead of compiling. A failure never fails the install.
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, renameSync, rmSync } = require('node:fs');
const { dirname, join } = require('node:path');

function keep() {
  const addon = dirname(require.resolve('better-sqlite3/package.json'));
  if (!existsSync(join(addon, 'build', 'Release', 'better_sqlite3.node'))) return;
  const fromAddon = (name) => require(require.resolve(`prebuild-install/${name}`, { paths: [addon] }));
  const pkg = require(join(addon, 'package.json'));
  const opts = { ...fromAddon('rc')(pkg), pkg };
  const util = fromAddon('util');
  const target = util.cachedPrebuild(util.getDownloadUrl(opts));
  if (existsSync(target)) return;
  mkdirSync(dirname(target), { recursive: true });
  // Written beside its final name and renamed, so a parallel install never unpacks half a file.
  const partial = `${target}.${process.pid}.partial`;
  const tar = spawnSync('tar', ['-czf', partial, '-C', addon, 'build/Release/better_sqlite3.node'], {
    stdio: 'inherit',
  });
  if (tar.status === 0) renameSync(partial, target);
  else rmSync(partial, { force: true });
}

try {
  keep();
} catch (error) {
  process.stderr.write(`keep-native-addon: the better-sqlite3 addon was not kept (${error.message})\n`);
}
