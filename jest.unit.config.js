/**
 * Fast unit tests only (tests/unit, pure rules): no global setup, no services, no workflow
 * bundle. Used by `npm run test:mutation` (Stryker) and handy on its own.
 */
const base = require('./jest.config');

module.exports = {
  // Plain node: the open-handle check runs on these files in the full suite (npm test); inside
  // Stryker's runner a handle of Stryker's own could fail a mutant's run and count it as killed.
  testEnvironment: 'node',
  transform: base.transform,
  // src/ and scripts/ too: Stryker asks Jest for the tests related to a mutated file, and Jest
  // follows imports only through files under its roots (the intent corpus test reaches the
  // rules through scripts/intent-eval.ts). testMatch keeps tests to tests/unit.
  roots: ['<rootDir>/tests/unit', '<rootDir>/scripts', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  testTimeout: 10000,
};
