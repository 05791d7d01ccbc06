/**
 * The second check on an order (core/words/order-checks.ts): what around a clause the grammar read
 * as an order makes it something other than an instruction to act now — a time it waits for, a
 * short hedge beside it, a joke or take-back after it, a question after it that names nothing
 * else. Read with per-character cuts: the check reads clause text, not the segmenter's words.
 */
import { orderStands } from '../../src/core/words/order-checks';
import { characterSegmenter, readMessage, type ReadSentence } from '../../src/core/words/reading';

const UNIT = /chapter\s*\d+|第.章/iu;
/** A sentence naming a chapter asks about that chapter, as author scope reads it. */
const namesAChapter = (s: ReadSentence): boolean => UNIT.test(s.text);

/** Whether the order in clause `ci` of sentence `si` stands. */
const stands = (message: string, si = 0, ci = 0, ignore?: RegExp): boolean =>
  orderStands(readMessage(message, characterSegmenter), si, ci, namesAChapter, ignore);

describe('a time word makes an order wait in its own clause or before it, not after it', () => {
  test.each([
    ['Delete chapter 4 afterwards', 0, 0],
    ['OK, delete chapter 4 afterwards', 0, 1],
    ['Fine, delete chapter 4 later', 0, 1],
    ['周五之前删掉第四章', 0, 0],
    ['好的，周五之前删掉第四章', 0, 1],
    ['周五之前，删掉第四章', 0, 1],
  ])('"%s" waits: no order now', (m, si, ci) => expect(stands(m, si, ci)).toBe(false));

  test.each([
    ["Delete chapter 4, I'll redo the ending afterwards", 0, 0],
    ['删掉第四章，之前那版我留了备份', 0, 0],
    ['好的，删掉第四章，以后我用自己的本子', 0, 1],
  ])('"%s": the time word after the order gives a reason, the order stands', (m, si, ci) =>
    expect(stands(m, si, ci)).toBe(true),
  );
});

describe('a short hedge beside an order voids it; a longer clause is a reason', () => {
  test.each([
    ['Delete chapter 4, I think', 0, 0],
    ['Delete chapter 4, I think it drags on', 0, 0],
    ['I think so, delete chapter 4', 0, 1],
    ['删掉第四章，我觉得', 0, 0],
    ['删掉第四章，可能吧', 0, 0],
  ])('"%s" is hedged: no order', (m, si, ci) => expect(stands(m, si, ci)).toBe(false));

  test.each([
    ['Delete chapter 4, I think it drags on badly', 0, 0],
    ['I think it drags too much, delete chapter 4', 0, 1],
    ['删掉第四章，我觉得结尾拖得太久太久了', 0, 0],
  ])('"%s": the hedged clause is over five words, the order stands', (m, si, ci) =>
    expect(stands(m, si, ci)).toBe(true),
  );

  test("the order's own clause is the grammar's to read, not a hedge beside it", () => {
    // "Idea" is a hedge word ("idea"); here it is part of a title the order names.
    expect(stands('Delete Idea Notes')).toBe(true);
  });
});

describe('a joke or a take-back voids the orders before it, not those after it', () => {
  test.each([
    ['Delete chapter 4, said no author ever', 0, 0],
    ['Sure, delete chapter 4 said no author ever', 0, 1],
    ['Delete chapter 4 lol', 0, 0],
    ['删掉第四章 哈哈哈骗你的', 0, 0],
  ])('"%s" is a joke: no order', (m, si, ci) => expect(stands(m, si, ci)).toBe(false));

  test.each([
    ['ugh 🙄 delete chapter 4', 0, 1],
    ['lol ok. Delete chapter 4', 1, 0],
    ['Delete chapter 3 - no wait, delete chapter 4', 0, 2],
  ])('"%s": what comes before the order does not void it', (m, si, ci) => expect(stands(m, si, ci)).toBe(true));

  test('a command that reads like a take-back is no take-back, and a joke after the order still voids it', () => {
    const THAT_JOB = /\bcancel that job\b/giu;
    expect(stands('Cancel that job, then delete chapter 4', 0, 1, THAT_JOB)).toBe(true);
    expect(stands('Cancel that job, then delete chapter 4 lol', 0, 1, THAT_JOB)).toBe(false);
  });
});

describe('a question after an order asks about it unless it names something else', () => {
  test.each([
    ['Delete chapter 4. OK?', 0, 0],
    ['Delete chapter 4. Are you sure?', 0, 0],
    ['删掉第四章。你确定吗', 0, 0],
  ])('"%s" asks about the order: no order', (m, si, ci) => expect(stands(m, si, ci)).toBe(false));

  test.each([
    ['Delete chapter 4. Is chapter 5 any good?', 0, 0],
    ['删掉第四章。第五章呢？', 0, 0],
    ['You know what? Delete chapter 4.', 1, 0],
    ['你知道吗？删掉第四章。', 1, 0],
  ])('"%s": the question names another chapter or comes before, the order stands', (m, si, ci) =>
    expect(stands(m, si, ci)).toBe(true),
  );
});
