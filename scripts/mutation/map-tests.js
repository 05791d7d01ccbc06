/**
 * Writes the map the mutation runs' test sequencer reads (covering-files-sequencer.js): every
 * rule test file and the full names of its tests, from one plain Jest run of the mutation
 * config. Run just before Stryker (`npm run test:mutation`) so the map matches the tests it
 * runs; the run also fails fast, before Stryker's dry run, when a rule test fails.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const out = path.join(root, '.local/mutation-test-map.json');
const results = path.join(root, '.local/mutation-tests.json');

fs.mkdirSync(path.dirname(out), { recursive: true });
try {
  execFileSync(
    process.execPath,
    [
      require.resolve('jest/bin/jest'),
      '-c',
      'jest.mutation.config.js',
      '--silent',
      '--json',
      `--outputFile=${results}`,
    ],
    { cwd: root, stdio: 'pipe' },
  );
} catch (error) {
  process.stderr.write(error.stderr ?? String(error));
  process.exit(1);
}
const map = {};
for (const file of JSON.parse(fs.readFileSync(results, 'utf8')).testResults) {
  map[path.relative(root, file.name)] = file.assertionResults.map((test) => test.fullName);
}
fs.writeFileSync(out, JSON.stringify(map));
fs.rmSync(results);
console.log(`[mutation] test map: ${Object.keys(map).length} files, ${Object.values(map).flat().length} tests`);
