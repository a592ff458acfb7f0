/**
 * End-to-end tests against the real app and a real database (SQLite by default, MySQL/MariaDB when
 * DATABASE_URL says so). Each spec file gets its own database, so files run in parallel.
 * @type {import('jest').Config}
 */
module.exports = {
  rootDir: '..',
  roots: ['<rootDir>/test/e2e'],
  testRegex: '\\.e2e-spec\\.ts$',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.jest.json' }],
  },
  testEnvironment: 'node',
  // A hang guard, not a speed target: at 30 s, 15 tests of 4 heavy files went red on a loaded machine and
  // passed alone (issue 33). Tests that wait on purpose (own servers, the fuzz run) set their own.
  testTimeout: 120000,
  maxWorkers: 2,
};
