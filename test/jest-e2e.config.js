/**
 * End-to-end tests against the real app and a real database (SQLite by default, MySQL/MariaDB when
 * DATABASE_URL says so). Each spec file gets its own database, so files run in parallel.
 *
 * The specs are TypeScript run as ES modules (ts-jest), but the service they test is its compiled form in
 * dist/, loaded by each worker's own `require` once and shared by every spec file the worker runs
 * (test/runner/): Jest would otherwise evaluate the whole service and its packages again for each file.
 * dist/ is rebuilt first when a source is newer (globalSetup).
 * @type {import('jest').Config}
 */
module.exports = {
  rootDir: '..',
  roots: ['<rootDir>/test/e2e'],
  testRegex: '\\.e2e-spec\\.ts$',
  extensionsToTreatAsEsm: ['.ts'],
  globalSetup: '<rootDir>/test/runner/global-setup.cjs',
  globalTeardown: '<rootDir>/test/runner/global-teardown.cjs',
  testEnvironment: '<rootDir>/test/runner/native-environment.cjs',
  testSequencer: '<rootDir>/test/runner/longest-first-sequencer.cjs',
  // Jest's own packages run inside Jest as usual; every other package a spec imports is loaded natively.
  transformIgnorePatterns: [
    '/node_modules/(jest|jest-[^/]+|@jest|babel-[^/]+|@babel|pirates|ts-jest|source-map-support)/',
  ],
  transform: {
    '^.+/node_modules/.+\\.[cm]?js$': '<rootDir>/test/runner/native-transform.cjs',
    '^.+/(src|examples)/.+\\.ts$': '<rootDir>/test/runner/native-transform.cjs',
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.jest.json' }],
  },
  // A hang guard, not a speed target, for every test and hook: at 30 s, 15 tests of 4 heavy files went red on a
  // loaded machine and passed alone (issue 33); at 120 s, three heavy files (the fuzz run's seeding, an import's
  // budget, a start that must fail) went red with 8 CPU burners beside all three Node lines of .ci/run. A test
  // that hangs still fails, ten minutes later. Tests do not set lower ones of their own.
  testTimeout: 600000,
  // Six workers on two cores: idle, 189 s against 172 s with four; beside CPU burners each worker is one more
  // share of the machine (the suite took 540 s there with four). See docs/testing.md.
  maxWorkers: 6,
};
