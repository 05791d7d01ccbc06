/**
 * `npm run fixtures:batch-misses`: the cases of each held-out batch the rules do not read as the
 * batch says today (asked about, or routed elsewhere; never a false authorisation, which fails
 * the test outright), written to tests/fixtures/intent/batch-misses.json. The batches test
 * (tests/unit/intent-batches.test.ts) holds every other case to passing, so a rule change that
 * breaks a case that passes fails there; rerun this after a change that fixes some.
 */
import fs from 'node:fs';
import path from 'node:path';
import { corpusSchema, evaluateCorpus, singleCases } from './intent-eval';

const DIR = path.resolve(__dirname, '../tests/fixtures/intent');
const misses: Record<string, string[]> = {};
for (const file of fs
  .readdirSync(path.join(DIR, 'batches'))
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const corpus = corpusSchema.parse(JSON.parse(fs.readFileSync(path.join(DIR, 'batches', file), 'utf8')));
  misses[file] = singleCases(corpus)
    .filter((c) => evaluateCorpus(c.corpus).failed > 0)
    .map((c) => `${c.part} ${c.index}`);
}
fs.writeFileSync(path.join(DIR, 'batch-misses.json'), `${JSON.stringify(misses, null, 1)}\n`);
console.log(`[batch-misses] ${Object.values(misses).flat().length} cases in ${Object.keys(misses).length} batches`);
