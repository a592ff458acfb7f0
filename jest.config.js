/**
 * Unit tests, beside the source. NestJS 12 ships as ES modules, and Jest on Node 20 cannot require()
 * them, so tests run as native ESM (ts-jest `useESM`, node --experimental-vm-modules); the service
 * itself is compiled to CommonJS and loads Nest through Node's require(esm).
 * @type {import('jest').Config}
 */
module.exports = {
  rootDir: '.',
  roots: ['<rootDir>/src'],
  testRegex: '\\.spec\\.ts$',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.jest.json' }],
  },
  testEnvironment: 'node',
  // A hang guard, not a speed target: Jest's 5 s default failed a password-hashing test (scrypt) with CPU burners
  // beside all three Node lines of .ci/run. A test that hangs still fails, ten minutes later.
  testTimeout: 600000,
  // Jest's default is one worker on two cores; npm test runs this beside the typecheck and the lint.
  maxWorkers: 2,
};
