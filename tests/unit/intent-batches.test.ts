/**
 * The held-out batches (tests/fixtures/intent/batches), case by case, after their first run: a
 * batch measures the rules once, on wording nobody tuned them for (batches.md); from then on its
 * cases are more of the wording real authors use, and a rule change must not break one that
 * passes. Every case: no false authorisation. Every case but the recorded misses
 * (batch-misses.json, `npm run fixtures:batch-misses`): read exactly as the batch says. One test
 * per case, so a mutation run executes only the cases that reach the mutated rule.
 */
import fs from 'node:fs';
import path from 'node:path';
import { corpusSchema, evaluateCorpus, singleCases } from '../../scripts/intent-eval';
import { read } from './read';

const DIR = path.join(__dirname, '../fixtures/intent');
const misses = JSON.parse(fs.readFileSync(path.join(DIR, 'batch-misses.json'), 'utf8')) as Record<string, string[]>;
const files = fs
  .readdirSync(path.join(DIR, 'batches'))
  .filter((f) => f.endsWith('.json'))
  .sort();

test('every batch has its recorded misses, and a batch is mostly read right', () => {
  expect(Object.keys(misses).sort()).toEqual(files);
  for (const file of files) {
    const corpus = corpusSchema.parse(JSON.parse(fs.readFileSync(path.join(DIR, 'batches', file), 'utf8')));
    expect({ file, missed: misses[file].length <= singleCases(corpus).length * 0.15 }).toEqual({ file, missed: true });
  }
});

for (const file of files) {
  const corpus = corpusSchema.parse(JSON.parse(fs.readFileSync(path.join(DIR, 'batches', file), 'utf8')));
  const missed = new Set(misses[file]);
  describe(`batch ${file.replace(/\.json$/, '')}`, () => {
    test.each(
      singleCases(corpus).map((c) => [`${c.part} #${c.index} ${c.text.replace(/\s+/g, ' ').slice(0, 60)}`, c] as const),
    )('%s', (_name, c) => {
      const result = evaluateCorpus(c.corpus, read);
      expect(result.falseAuthorisations).toBe(0);
      if (!missed.has(`${c.part} ${c.index}`)) expect(result.failures).toEqual([]);
    });
  });
}
