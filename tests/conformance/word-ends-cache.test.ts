/**
 * The recorded jieba cuts the unit tests replay (tests/fixtures/intent/word-ends.json, see
 * tests/unit/read.ts) are jieba's cuts now, for every Chinese message the unit tests read:
 * otherwise a rule would pass its unit tests on words a turn never sees. Regenerate with
 * `npm run fixtures:word-ends`.
 */
import fs from 'node:fs';
import { messagesToCut, WORD_ENDS_FILE, wordEndsOf } from '../../scripts/word-ends-cache';

test('the recorded cuts hold every Chinese message of the unit tests and the corpus, as jieba cuts it', () => {
  const recorded = JSON.parse(fs.readFileSync(WORD_ENDS_FILE, 'utf8')) as Record<string, number[]>;
  const messages = messagesToCut();
  expect(messages.length).toBeGreaterThan(500);
  expect(messages.filter((m) => !(m in recorded))).toEqual([]);
  const now = wordEndsOf(messages);
  expect(messages.filter((m) => JSON.stringify(now[m]) !== JSON.stringify(recorded[m]))).toEqual([]);
});
