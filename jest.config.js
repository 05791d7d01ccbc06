/** Jest runs TypeScript through SWC (fast, no type-check: `npm run typecheck` does that). */
module.exports = {
  // Node, plus a check that fails a test file which leaves a socket, server, timer or child process open.
  testEnvironment: '<rootDir>/tests/helpers/open-handles-environment.js',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  globalSetup: '<rootDir>/tests/global-setup.ts',
  testTimeout: 60000,
  // Integration suites share one Temporal server, one MongoDB and one Redis; two cores.
  maxWorkers: 2,
  // The ten slowest test files, after the default report.
  reporters: ['default', '<rootDir>/tests/helpers/slowest-suites-reporter.js'],
};
