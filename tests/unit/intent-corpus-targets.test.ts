/**
 * The team's intent corpus as a whole: its size and languages, each part's targets, and at most
 * 5 % of plain orders asked about instead of acted on. Each case on its own is judged in
 * intent-corpus.test.ts (the file mutation testing runs); these totals need every case, so
 * mutation testing leaves them out rather than run the whole corpus for every mutant.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  type Corpus,
  type CorpusPart,
  corpusSchema,
  evaluateCorpus,
  formatReport,
  onlyPart,
  rate,
} from '../../scripts/intent-eval';
import { read } from './read';

const corpus = corpusSchema.parse(
  JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/intent/corpus.json'), 'utf8')),
);
const only = (part: CorpusPart): Corpus => onlyPart(corpus, part);

test('the corpus is large and in both languages', () => {
  const total =
    corpus.scope.length +
    corpus.route.length +
    corpus.plan_request.length +
    corpus.lang.length +
    corpus.question.length;
  expect(total).toBeGreaterThanOrEqual(400);
  const zh = (s: string) => /[\u4e00-\u9fff]/u.test(s);
  for (const kind of [
    corpus.scope.map((c) => c.msg),
    corpus.route.map((c) => c.msg),
    corpus.plan_request.map((c) => c.msg),
    corpus.job_command.map((c) => c.msg),
  ]) {
    expect(kind.filter(zh).length).toBeGreaterThan(kind.length / 4);
    expect(kind.filter((m) => !zh(m)).length).toBeGreaterThan(kind.length / 4);
  }
});

test.each([
  ['scope', [['scope', 0.9]]],
  [
    'route',
    [
      ['route:not_inherit', 1],
      ['route:no_write', 1],
      ['route:confirm', 0.95],
      ['route:clarify_first', 0.9],
      ['route', 0.95],
    ],
  ],
  ['plan_request', [['plan_request', 0.95]]],
  ['lang', [['lang', 1]]],
  ['question', [['question', 1]]],
  [
    'job_command',
    [
      ['job_command:none', 1],
      ['job_command', 0.95],
    ],
  ],
] as const)(
  '%s: no false authorisation, every target met, every case passes but orders asked about (≤ 5 %%)',
  (part, targets) => {
    const result = evaluateCorpus(only(part), read);
    if (result.failed > 0) console.log(formatReport(result));
    expect(result.falseAuthorisations).toBe(0);
    for (const [category, target] of targets)
      expect({ category, met: rate(result, category) >= target }).toEqual({ category, met: true });
    // The only failures allowed are orders asked about (a missed authorisation or job command), never a wrong act.
    const asked = result.failures.filter(
      (f) =>
        f.category === 'scope:authorises' ||
        (f.category.startsWith('job_command:') && f.category !== 'job_command:none'),
    );
    expect(result.failures.filter((f) => !asked.includes(f))).toEqual([]);
    expect(result.asking.asked).toBe(asked.length);
    expect(result.asking.asked).toBeLessThanOrEqual(Math.floor(result.asking.orders * 0.05));
  },
);
