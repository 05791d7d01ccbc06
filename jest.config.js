/** Jest runs TypeScript through SWC (fast, no type-check: `npm run typecheck` does that). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  globalSetup: '<rootDir>/tests/global-setup.ts',
  testTimeout: 60000,
  // Integration suites share one Temporal server, one MongoDB and one Redis; two cores.
  maxWorkers: 2,
};
