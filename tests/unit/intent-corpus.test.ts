/**
 * The team's intent corpus, case by case: every message of it, written the way authors write in
 * both languages, read by the rules one at a time. Every case passes but the plain orders listed
 * in ASKED, which the rules ask about instead of acting on (the grammar of orders reads only what
 * it fully accounts for); a rule change that makes another order asked about fails here, so a
 * rule that stops authorising is caught case by case, not only when the share of orders asked
 * about passes 5 %. One test per case, so a mutation run executes only the cases that reach the
 * mutated rule; the totals (each part's target, that share) are in intent-corpus-targets.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Corpus, corpusSchema, evaluateCorpus } from '../../scripts/intent-eval';
import { read } from './read';

const corpus = corpusSchema.parse(
  JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/intent/corpus.json'), 'utf8')),
);
type Part = keyof Omit<Corpus, 'files_zh' | 'files_en'>;
const EMPTY: Corpus = {
  ...corpus,
  scope: [],
  route: [],
  plan_request: [],
  lang: [],
  question: [],
  job_command: [],
};
const only = <P extends Part>(part: P, cases: Corpus[P]): Corpus => ({ ...EMPTY, [part]: cases });

/** The plain orders of the corpus the rules ask about today; one they come to act on leaves the list. */
const ASKED = new Set(['rewrite chapter 2 从头写，用 Anna 的视角', '砍掉第五章吧，这章就是凑字数的 😂']);

/** A missed authorisation or job command: the rules asked instead of acting, never a wrong act. */
const asks = (category: string): boolean =>
  category === 'scope:authorises' || (category.startsWith('job_command:') && category !== 'job_command:none');

/** The case's own words, on one line and short, as its test's name (the index keeps names unique). */
const title = (index: number, words: string): string => `#${index + 1} ${words.replace(/\s+/g, ' ').slice(0, 70)}`;

const PARTS: Part[] = ['scope', 'route', 'plan_request', 'lang', 'question', 'job_command'];

for (const part of PARTS) {
  describe(`${part} case`, () => {
    const cases = corpus[part] as Corpus[Part];
    test.each(cases.map((c, i) => [title(i, 'msg' in c ? c.msg : c.text), c] as const))('%s', (_name, c) => {
      const result = evaluateCorpus(only(part, [c] as Corpus[Part]), read);
      expect(result.falseAuthorisations).toBe(0);
      const askedAbout = 'msg' in c && ASKED.has(c.msg);
      expect(result.failures.map((f) => ({ asks: asks(f.category), detail: f.detail }))).toEqual(
        askedAbout ? [{ asks: true, detail: expect.any(String) }] : [],
      );
    });
  });
}

test('a case that should write nothing but that the rules send to a write counts as a false authorisation', () => {
  const offer = {
    agent: 'writer' as const,
    read_only: false,
    question: 'Chapter 1 is done and saved. Ready for chapter 2?',
  };
  const result = evaluateCorpus(
    only('route', [
      { prev: offer, msg: 'yes', expect: 'no_write' },
      { prev: offer, msg: 'hmm, who is asking', expect: 'no_write' },
    ]),
  );
  expect(result.falseAuthorisations).toBe(1);
  expect(result.failures.map((f) => f.detail)).toEqual([
    '"yes" after "Chapter 1 is done and saved. Ready for chapter 2?": got confirm_proposal writer — FALSE AUTHORISATION write',
    '"hmm, who is asking" after "Chapter 1 is done and saved. Ready for chapter 2?": got router decides',
  ]);
});

test('a job paused, resumed or cancelled on a message that did not ask for it counts as a false authorisation', () => {
  const result = evaluateCorpus(
    only('job_command', [
      { msg: 'cancel the job', action: null },
      { msg: 'job status', action: null },
    ]),
  );
  expect(result.falseAuthorisations).toBe(1);
  expect(result.failures.map((f) => f.detail)).toEqual([
    '"cancel the job": got cancel — FALSE AUTHORISATION cancel',
    '"job status": got status',
  ]);
});
