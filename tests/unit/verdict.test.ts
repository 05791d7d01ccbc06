/** The reviewer's verdict line: one reader for the job's revision rounds, the metrics and Studio's badge. */
import { parseVerdict } from '../../src/core/verdict';

test.each([
  ['Verdict: pass\nThe chapter holds.', 'pass'],
  ['verdict：**revise**\n- tighten the dialogue', 'revise'],
  ['Verdict: 返修', 'revise'],
  ['Verdict: 通过', 'pass'],
  ['结论：修改\n对白太长。', 'revise'],
  ['判定: 通过', 'pass'],
  ['The chapter holds together.', 'none'],
  // A verdict still streaming in is not one yet.
  ['Verdict: rev', 'none'],
])('%j → %s', (text, verdict) => {
  expect(parseVerdict(text)).toBe(verdict);
});
