/**
 * Fast unit tests only (tests/unit, pure rules): no global setup, no services, no workflow
 * bundle. Used by `npm run test:mutation` (Stryker) and handy on its own.
 */
const base = require('./jest.config');

module.exports = {
  testEnvironment: base.testEnvironment,
  transform: base.transform,
  roots: ['<rootDir>/tests/unit'],
  testMatch: ['**/*.test.ts'],
  testTimeout: 10000,
};
