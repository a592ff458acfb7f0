'use strict';
// Jest's globalSetup for the e2e specs: they load the compiled service, so dist/ must be as new as the sources.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = function buildService() {
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-if-needed.cjs')], { stdio: 'inherit' });
};
