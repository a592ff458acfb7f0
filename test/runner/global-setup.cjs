'use strict';
// Jest's globalSetup for the e2e specs: they load the compiled service, so dist/ is rebuilt first when a source
// is newer; the python readers of the recurrence interop suite are installed when missing
// (scripts/python-readers.cjs); then the run's migrated template database is made (template-database.cjs).
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');
const { TEMPLATE_DATABASE_VARIABLE, createTemplate } = require('./template-database.cjs');
const ensurePythonReaders = require('../../scripts/python-readers.cjs');

module.exports = async function globalSetup() {
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-if-needed.cjs')], {
    stdio: 'inherit',
  });
  ensurePythonReaders();
  // Set here, the variable reaches the workers Jest starts next.
  process.env[TEMPLATE_DATABASE_VARIABLE] = await createTemplate();
};
