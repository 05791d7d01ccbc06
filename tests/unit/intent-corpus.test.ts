/**
 * The team's intent corpus (issue 29): the rules that read an author's words, measured on
 * hundreds of messages written the way authors write, in both languages. A false
 * authorisation fails the suite outright; every other kind has its target. One test that
 * evaluates the corpus itself, so mutation testing sees every rule it exercises.
 */
import fs from 'node:fs';
import path from 'node:path';
import { corpusSchema, evaluateCorpus, formatReport, rate } from '../../scripts/intent-eval';

const corpus = corpusSchema.parse(JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/intent/corpus.json'), 'utf8')));

const TARGETS: [string, number][] = [
  ['route:not_inherit', 1],
  ['route:no_write', 1],
  ['route:confirm', 0.95],
  ['route:clarify_first', 0.9],
  ['plan_request', 0.95],
  ['lang', 1],
  ['question', 1],
  ['scope', 0.9],
  ['route', 0.95],
];

test('the corpus is large and in both languages', () => {
  const total = corpus.scope.length + corpus.route.length + corpus.plan_request.length + corpus.lang.length + corpus.question.length;
  expect(total).toBeGreaterThanOrEqual(400);
  const zh = (s: string) => /[\u4e00-\u9fff]/u.test(s);
  for (const kind of [corpus.scope.map((c) => c.msg), corpus.route.map((c) => c.msg), corpus.plan_request.map((c) => c.msg)]) {
    expect(kind.filter(zh).length).toBeGreaterThan(kind.length / 4);
    expect(kind.filter((m) => !zh(m)).length).toBeGreaterThan(kind.length / 4);
  }
});

test('no false authorisation, and every kind of case meets its target', () => {
  const result = evaluateCorpus(corpus);
  if (result.failed > 0) console.log(formatReport(result));
  expect(result.falseAuthorisations).toBe(0);
  const rates = Object.fromEntries(TARGETS.map(([category]) => [category, rate(result, category)]));
  for (const [category, target] of TARGETS) expect({ category, rate: rates[category]! >= target }).toEqual({ category, rate: true });
  // The team's own corpus passes whole: a rule change that loses a case shows here first.
  expect(result.failures).toEqual([]);
  // The report reads as `npm run eval:intent` prints it.
  expect(formatReport(result).split('\n').at(-1)).toBe(`intent: ${result.passed} passed, ${result.failed} failed`);
});
