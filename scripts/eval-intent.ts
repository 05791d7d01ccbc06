/**
 * `npm run eval:intent -- <corpus.json>`: runs the intent rules on a corpus and prints each
 * failing case, a line per category and `intent: N passed, M failed`. Exits 1 when any
 * false authorisation occurs (the one failure that can cost an author their work), 2 on a
 * corpus that is not in the format.
 */
import fs from 'node:fs';
import { corpusSchema, evaluateCorpus, formatReport } from './intent-eval';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run eval:intent -- <corpus.json>  (format: scripts/intent-eval.ts corpusSchema)');
  process.exit(2);
}
const parsed = corpusSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
if (!parsed.success) {
  console.error(
    `${file} is not an intent corpus:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
  );
  process.exit(2);
}
const result = evaluateCorpus(parsed.data);
console.log(formatReport(result));
process.exit(result.falseAuthorisations > 0 ? 1 : 0);
