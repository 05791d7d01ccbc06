/**
 * What comes after an order, read before the order stands: a clause of its sentence that picks
 * among what it names in words the grammar does not know ("…, bar the second", "…，除开第二个")
 * voids it, while a reason or a word on another file does not; a sentence that opens with a
 * bare no takes it back ("……不，还是先留着"); an order after "等…" waits (first-run false
 * authorisations of held-out batch E).
 */
import { type AuthorAction, authorisedFiles } from '../../src/core/words/author-scope';
import { read } from './read';

const EN = ['Chapter 1', 'Chapter 2: Salt and Iron', 'Chapter 3', 'Chapter 4', 'Notes', 'Outline Draft'];
const ZH = ['第1章 起', '第2章 承', '第8章 风起', '第8章 风起（草稿副本）', '第10章 潮平', '笔记'];

const authorised = (message: string, project: string[], action: AuthorAction = 'delete'): string[] =>
  authorisedFiles(
    { reading: read(message), titles: project },
    project.map((t, i) => ({ id: String(i), title: t })),
    action,
  ).map((f) => f.title);

describe('a clause after the order that picks among what it names', () => {
  test('an exception in words the grammar does not know voids the order: asked, nothing authorised', () => {
    expect(authorised('Delete chapters 1 through 4, minus the second.', EN)).toEqual([]);
    expect(authorised('Delete chapters 1 through 4, save chapter 2.', EN)).toEqual([]);
    expect(authorised('Delete chapters 1 to 4, but the last one stays', EN)).toEqual([]);
    expect(authorised('把第1到第2章删了，第二个先别管', ZH)).toEqual([]);
    expect(authorised('把第1到第2章删了，剩下的以后再说', ZH)).toEqual([]);
  });

  test('a reason, a feeling or a word on another file leaves the order standing', () => {
    expect(authorised('Delete chapter 4, it is filler now', EN)).toEqual(['Chapter 4']);
    expect(authorised('Delete chapter 4, chapter 1 looks good', EN)).toEqual(['Chapter 4']);
    expect(authorised('delete Outline Draft, the first draft of it is obsolete', EN)).toEqual(['Outline Draft']);
    expect(authorised('删掉第十章，第一章挺好', ZH)).toEqual(['第10章 潮平']);
    expect(authorised('把笔记删了，里面的东西都过时了', ZH)).toEqual(['笔记']);
  });

  test('a known exception still does its work', () => {
    expect(authorised('Delete chapters 1 through 4 except chapter 2', EN)).toEqual([
      'Chapter 1',
      'Chapter 3',
      'Chapter 4',
    ]);
  });
});

describe('a sentence after the order that opens with a bare no', () => {
  test('takes the order back', () => {
    expect(authorised('第十章删了吧。……不，还是先留着，等我通读一遍再说。', ZH)).toEqual([]);
    expect(authorised('Delete chapter 4. No, leave it for now.', EN)).toEqual([]);
    expect(authorised('Delete chapter 4. Nope.', EN)).toEqual([]);
  });

  test('a no that is part of another sentence is not a take-back', () => {
    expect(authorised('Delete chapter 4. Not a single scene of it works.', EN)).toEqual(['Chapter 4']);
    expect(authorised('第十章删了吧。不用再问我了。', ZH)).toEqual(['第10章 潮平']);
  });
});

describe('an order after 等…', () => {
  test('waits: nothing is authorised now', () => {
    expect(authorised('等任务把第十章写完，再把第8章的草稿副本删除。', ZH)).toEqual([]);
    expect(authorised('等我看完，把笔记删了', ZH)).toEqual([]);
  });

  test('without it, the same order acts', () => {
    expect(authorised('把笔记删了', ZH)).toEqual(['笔记']);
  });
});

describe("an exception by ordinal counts in the order's one range or list", () => {
  test('"bar the second", "except the last one": the unit it counts to is left out', () => {
    expect(authorised('Delete chapters 1 through 4, bar the second.', EN)).toEqual([
      'Chapter 1',
      'Chapter 3',
      'Chapter 4',
    ]);
    expect(authorised('remove chapters 1 to 4 except the last one', EN)).toEqual([
      'Chapter 1',
      'Chapter 2: Salt and Iron',
      'Chapter 3',
    ]);
    expect(authorised('Delete chapters 1 to 4. Keep the third.', EN)).toEqual([
      'Chapter 1',
      'Chapter 2: Salt and Iron',
      'Chapter 4',
    ]);
  });

  test('with no one range to count in, or counting past its end, nothing is authorised', () => {
    expect(authorised('delete chapter 3 bar the second', EN)).toEqual([]);
    expect(authorised('delete chapters 1 and 3, and Notes, except the first', EN)).toEqual([]);
    expect(authorised('delete chapters 1 to 2 except the fifth', EN)).toEqual([]);
    expect(authorised('delete chapters 1 to 4 except the second half', EN)).toEqual([]);
  });
});

describe('a clause of purpose after orders that each name one file', () => {
  test('"so that …", "让…" says what the order is for, not which files it takes', () => {
    expect(authorised('Delete chapter 1, and rewrite Notes so that it covers what chapter 1 did', EN)).toEqual([
      'Chapter 1',
    ]);
    expect(authorised('删除第一章，让第二章直接接上第一章原来的内容', ZH)).toEqual(['第1章 起']);
  });

  test('after a range or a list, the same clause may pick among its files: asked', () => {
    expect(authorised('Delete chapters 1 to 3 so that chapter 2 survives', EN)).toEqual([]);
    expect(authorised('删除第一到第二章，让第二章单独成篇', ZH)).toEqual([]);
  });
});

describe('an order said inside quotation marks', () => {
  test("a line of dialogue is not the author's order; an order beside one is", () => {
    expect(authorised('第十章加一句台词：“删了吧，都忘了吧。”', ZH)).toEqual([]);
    expect(authorised('Give Mara a line in chapter 3: "Delete it. Delete all of it."', EN)).toEqual([]);
    expect(authorised('删掉笔记，然后给第十章加一句台词：“都忘了吧。”', ZH)).toEqual(['笔记']);
  });
});
