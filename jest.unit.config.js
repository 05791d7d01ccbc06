/**
 * Fast unit tests only (tests/unit, pure rules): no global setup, no services, no workflow
 * bundle. Used by `npm run test:mutation` (Stryker) and handy on its own.
 */
const base = require('./jest.config');

module.exports = {
  testEnvironment: base.testEnvironment,
  transform: base.transform,
  // scripts/ too: the intent corpus test reaches the rules through scripts/intent-eval.ts, and
  // Jest (Stryker's findRelatedTests) follows imports only through files under its roots.
  roots: ['<rootDir>/tests/unit', '<rootDir>/scripts'],
  testMatch: ['**/*.test.ts'],
  testTimeout: 10000,
};
