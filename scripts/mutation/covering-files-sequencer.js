/**
 * The test files of a mutant run: only those holding a test it asks for, fewest tests first.
 *
 * Stryker runs each mutant against the tests that covered it (by name, as `testNamePattern`),
 * but Jest still loads every related test file to find them, and loading the rule test files
 * costs more than running the covering tests of most mutants. The names of the tests in each
 * file come from a map written just before Stryker starts (scripts/mutation/map-tests.js,
 * `npm run test:mutation`); without the map, or when a requested name is not in it, every file
 * runs as before, so a missing or stale map can only make a run slower, never skip a test.
 * Small, pointed files go first and the corpus files of a case per test last: a mutant run stops
 * at its first failing test (fail-fast-environment.js), and a pointed test usually fails sooner.
 */
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const MAP_ENV = 'MUTATION_TEST_MAP';

class CoveringFilesSequencer extends Sequencer {
  constructor(options) {
    super(options);
    this.pattern = options.globalConfig.testNamePattern;
    this.rootDir = options.globalConfig.rootDir;
  }

  sort(tests) {
    const sorted = super.sort(tests);
    const files = this.pattern ? filesHolding(this.pattern) : undefined;
    if (!files) return sorted;
    const size = (test) => testsByFile.get(path.relative(this.rootDir, test.path))?.length ?? 0;
    return sorted.filter((test) => files.has(path.relative(this.rootDir, test.path))).sort((a, b) => size(a) - size(b));
  }
}

let filesByName;
/** Test file → its test names, from the same map. */
const testsByFile = new Map();

/** Test full name → the files holding a test of that name, read once per process; null when absent. */
function readMap() {
  if (filesByName !== undefined) return filesByName;
  const file = process.env[MAP_ENV];
  filesByName = null;
  if (!file || !fs.existsSync(file)) return filesByName;
  filesByName = new Map();
  for (const [testFile, names] of Object.entries(JSON.parse(fs.readFileSync(file, 'utf8')))) {
    testsByFile.set(testFile, names);
    for (const name of names) filesByName.set(name, [...(filesByName.get(name) ?? []), testFile]);
  }
  return filesByName;
}

/**
 * The files holding the tests the pattern asks for, or undefined (run everything) when there is
 * no map or a requested name is not in it. Stryker writes the pattern as an alternation of
 * escaped full names, `(name1)|(name2)`; an escaped `)` is `\)`, so only a bare `)|(` separates.
 */
function filesHolding(pattern) {
  const map = readMap();
  if (!map || !pattern.startsWith('(') || !pattern.endsWith(')')) return undefined;
  const files = new Set();
  for (const escaped of pattern.slice(1, -1).split(/(?<!\\)\)\|\(/)) {
    const holders = map.get(escaped.replace(/\\(.)/g, '$1'));
    if (!holders) return undefined;
    for (const file of holders) files.add(file);
  }
  return files;
}

module.exports = CoveringFilesSequencer;
