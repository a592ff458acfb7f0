'use strict';
// The e2e run's migrated template database: made once by globalSetup (the CLI's `migrations:run` on a database
// of its own, SQLite or MySQL like DATABASE_URL), copied for each app a spec boots without a database of its
// own (test/support/test-database.ts), dropped by globalTeardown. On MariaDB, migrating from nothing took about
// 0.6 s of DDL per app, 115 times a run; a copy takes a fraction of that.
const { spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

/** The environment variable that hands the template's URL to the workers. */
const TEMPLATE_DATABASE_VARIABLE = 'E2E_TEMPLATE_DATABASE';
const root = join(__dirname, '..', '..');

function isMysql(url) {
  return /^(mysql|mariadb):/.test(url);
}

/** A MySQL URL as a `URL` (mysql2 and the admin script read `mysql:`; `mariadb:` names the same server). */
function mysqlUrl(url) {
  return new URL(url.replace(/^mariadb:/, 'mysql:'));
}

/**
 * Creates or drops a database on the server of `url`, in a child process: Jest's globalSetup runs with its
 * module hooks on, and the specs' transform would hand this process a stand-in for mysql2.
 */
function adminDatabase(url, action, name) {
  const server = mysqlUrl(url);
  server.pathname = '/';
  const run = spawnSync(process.execPath, [join(root, '.ci', 'mysql-admin.cjs'), action, name], {
    env: { ...process.env, MYSQL_SERVER_URL: server.toString() },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`${action} database ${name}: ${run.stderr}`);
}

/**
 * The start of every database name a run makes on a MySQL server (`<prefix>_template_…`, `<prefix>_test_…`):
 * `E2E_DATABASE_PREFIX` when set (.ci/run names its run, so a run that is stopped before Jest's teardown can
 * drop what it left), else `cal`.
 */
function databasePrefix() {
  const prefix = process.env.E2E_DATABASE_PREFIX || 'cal';
  if (!/^[A-Za-z0-9_]{1,32}$/.test(prefix)) throw new Error(`E2E_DATABASE_PREFIX: not a database name: ${prefix}`);
  return prefix;
}

/** Makes and migrates the template; returns its URL. */
async function createTemplate() {
  const base = process.env.DATABASE_URL || '';
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  let url;
  if (isMysql(base)) {
    const name = `${databasePrefix()}_template_${suffix}`;
    adminDatabase(base, 'create', name);
    const server = mysqlUrl(base);
    server.pathname = `/${name}`;
    url = server.toString();
  } else {
    url = `sqlite:${join(tmpdir(), `cal-e2e-template-${suffix}.sqlite`)}`;
  }
  const run = spawnSync(process.execPath, [join(root, 'dist', 'src', 'cli', 'main.js'), 'migrations:run'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent', CAL_EXTENSIONS: '' },
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    dropTemplate(url);
    throw new Error(`migrating the template database failed:\n${run.stdout}\n${run.stderr}`);
  }
  return url;
}

function dropTemplate(url) {
  if (isMysql(url)) {
    adminDatabase(url, 'drop', mysqlUrl(url).pathname.slice(1));
    return;
  }
  const file = url.slice('sqlite:'.length);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
}

module.exports = { TEMPLATE_DATABASE_VARIABLE, createTemplate, databasePrefix, dropTemplate };
