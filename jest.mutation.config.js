/**
 * The tests mutation testing runs (Stryker, `npm run test:mutation`): the unit tests of the rule
 * modules it mutates, and nothing else. Stryker runs a mutant against every test file that
 * imports its module, however indirectly; the other unit files (the offline model, worker
 * capacity, exports, function lengths) reach the rules only through imports, load for up to a
 * second each, and kill no mutant the rule tests leave alive. Keeping them out makes each
 * mutant's run several times shorter.
 */
const path = require('node:path');
const unit = require('./jest.unit.config');

const RULE_TESTS = [
  'author-scope',
  'author-scope-edges',
  'author-words',
  'continuation',
  'decide-and-stream',
  'decide-rules',
  'file-stream',
  'file-stream-edges',
  'intent-batches',
  'intent-corpus',
  'intent-edges',
  'intent-rules',
  'job-commands',
  'job-commands-edges',
  'numerals',
  'numerals-edges',
  'offers-and-edits',
  'order-checks',
  'orders-grammar-a',
  'orders-grammar-b',
  'orders-after',
  'orders-grammar-c',
  'orders-grammar-d',
  'packets',
  'plans',
  'proposals',
  'reading',
  'resume-seam',
  'routing',
  'routing-edges',
  'routing-rules',
  'tool-context',
  'turn-flow-rules',
  'words-edges',
];

module.exports = {
  ...unit,
  testMatch: RULE_TESTS.map((name) => `<rootDir>/tests/unit/${name}.test.ts`),
  // Loads only the test files that hold a mutant's covering tests (see the file).
  testSequencer: path.join(__dirname, 'scripts/mutation/covering-files-sequencer.js'),
  // Stops a mutant's run at its first failing test (see the file).
  // An absolute path: Stryker loads the environment itself, before Jest would replace <rootDir>.
  testEnvironment: path.join(__dirname, 'scripts/mutation/fail-fast-environment.js'),
};
