'use strict';
// The recurrence interop suite (test/e2e/recurrence-interop.e2e-spec.ts) reads feeds with python's
// recurring-ical-events, icalendar and vobject, from Debian's packages. On a machine of this project (Debian, run
// as root) they are installed here when missing, so the README's test command needs no step of its own;
// anywhere else the run stops with the packages to install.
const { execFileSync, spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');

const PYTHON = '/usr/bin/python3';
const PACKAGES = ['python3-recurring-ical-events', 'python3-icalendar', 'python3-vobject'];

const present = () =>
  existsSync(PYTHON) &&
  spawnSync(PYTHON, ['-c', 'import recurring_ical_events, icalendar, vobject'], { stdio: 'ignore' }).status === 0;

function install() {
  // Three Node lines of .ci/run may start at once: apt waits for the package lock instead of failing.
  const apt = (...args) =>
    execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    apt('install', '-y', '-q', '--no-install-recommends', ...PACKAGES);
  } catch {
    apt('update', '-q');
    apt('install', '-y', '-q', '--no-install-recommends', ...PACKAGES);
  }
}

module.exports = function ensurePythonReaders() {
  if (present()) return;
  const canInstall = process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (canInstall) {
    process.stdout.write(`installing the python readers of the recurrence interop suite: ${PACKAGES.join(' ')}\n`);
    install();
  }
  if (!present())
    throw new Error(
      `the recurrence interop suite needs ${PYTHON} with ${PACKAGES.join(', ')} (Debian: apt-get install ${PACKAGES.join(' ')})`,
    );
};

if (require.main === module) module.exports();
