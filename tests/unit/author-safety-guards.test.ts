/**
 * Two classes of wording that authorised deleting a whole chapter the author did not ask to
 * delete, found by held-out batches: a line of dialogue in quotation marks that holds the verb,
 * and a part of the chapter named beside the order. Both now authorise nothing; the plain
 * order beside them still acts.
 *
 * Outside RULE_TESTS (jest.mutation.config.js) until the next refresh of the mutation baseline:
 * a new rule test reruns most of the rule modules' mutants.
 */
import { authorised } from './read';

const ZH = ['第1章 山路', '第2章 渡船', '第11章 断情', '大纲', '笔记'];
const EN = ['Chapter 1', 'Chapter 2', 'Outline', 'Notes'];

describe('a line of dialogue in quotation marks', () => {
  test('is the story, not an order', () => {
    expect(authorised('第十一章加一句女主的台词：“删了吧，这段记忆不要也罢。”', ZH)).toEqual([]);
    expect(authorised('Add a line for Mara in chapter 2: "Delete it. Delete all of it."', EN)).toEqual([]);
  });
});

describe('a part of the file named beside a whole-file order', () => {
  test('by its place or its count, it makes the order one about that part: nothing is authorised', () => {
    expect(authorised('delete chapter 2, the last three paragraphs', EN)).toEqual([]);
    expect(authorised('delete chapter 2 — just the ending', EN)).toEqual([]);
    expect(authorised('Delete chapter 2, last paragraph only.', EN)).toEqual([]);
    expect(authorised('rewrite chapter 1, the first half', EN, 'rewrite')).toEqual([]);
    expect(authorised('第二章删掉，最后三段', ZH)).toEqual([]);
    expect(authorised('删掉第二章，后半段', ZH)).toEqual([]);
    expect(authorised('第一章重写，开头两段', ZH, 'rewrite')).toEqual([]);
  });

  test('words that say the whole after all, or a reason about a part, leave the order standing', () => {
    expect(authorised('rewrite chapter 1 from scratch, not just the ending', EN, 'rewrite')).toEqual(['Chapter 1']);
    expect(authorised('第二章删掉，那段写得太水', ZH)).toEqual(['第2章 渡船']);
    expect(authorised('delete chapter 2', EN)).toEqual(['Chapter 2']);
    expect(authorised('删掉第二章', ZH)).toEqual(['第2章 渡船']);
  });
});
