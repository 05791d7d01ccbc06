/**
 * Node's test environment, with a mutant run that stops at its first failing test.
 *
 * Jest has no bail within a run that Stryker can use, so a mutant the first of its covering tests
 * kills would still run the rest of them (the intent corpus and batches: thousands of cases for a
 * rule every message passes through). Once a test has failed under the active mutant, every later
 * test of that run is skipped: the mutant is killed either way, and Stryker's verdict needs one
 * failure. Outside a mutant run (the dry run, or Jest on its own) nothing is skipped.
 */
const { TestEnvironment } = require('jest-environment-node');

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
/** The mutant under which a test has failed, shared by the test files of the process's runs. */
let killedMutant;

class FailFastEnvironment extends TestEnvironment {
  async handleTestEvent(event) {
    const mutant = process.env[ACTIVE_MUTANT];
    if (mutant === undefined) return;
    if (event.name === 'test_done' && event.test.errors.length > 0) killedMutant = mutant;
    else if (event.name === 'test_start' && killedMutant === mutant) event.test.mode = 'skip';
  }
}

module.exports = FailFastEnvironment;
