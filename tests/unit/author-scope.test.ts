/**
 * Author-file protection bound to what the author said about that file (without it, a delete
 * or a whole rewrite is still stopped): whole references, the verb of the clause that names
 * the file, references and finished work are not targets, the open file counts as named.
 */
import { type AuthorAction, authorAskedFor } from '../../src/core/words/author-scope';
import { splitClauses } from '../../src/core/words/utterance';
import { read } from './read';

const file = (title: string, id = 'f1') => ({ id, title });
/** The project's other files, as a tool knows them: a file kept by name must be one ("keep the Prologue"). */
const PROJECT = ['Prologue', '序章', 'Outline', '大纲'];
const asks = (
  message: string,
  title: string,
  action: AuthorAction = 'delete',
  focusFileId: string | null = null,
  id = 'f1',
) => authorAskedFor({ reading: read(message), focusFileId, titles: [title, ...PROJECT] }, file(title, id), action);

describe('titles match as whole references, numerals equal', () => {
  test.each([
    ['delete Chapter 10', 'Chapter 10'],
    ['delete Chapter 10', '第十章'],
    ['删除第十章', 'Chapter 10'],
    ['删掉第10章', '第十章 风暴'],
    ['删掉第１０章', 'Chapter Ten'],
    ['please remove chapter ten', 'Chapter 10: The Reef'],
    ['Delete the Prologue.', 'Prologue'],
    ['删掉序章', '序章'],
    ['删除第2-5章', '第3章'],
    ['delete chapters 2 to 5', 'Chapter 4'],
    ['删除第三章和第四章', '第四章'],
    ['把第3章和第4章都删了', '第3章'],
    ['delete chapters 3 and 4', 'Chapter 4'],
    ['delete episode 3', '第3集'],
    ['删除已有的第三章', '第三章'],
    ['把已经有的第三章删掉', '第三章'],
  ])('"%s" authorises deleting "%s"', (m, t) => expect(asks(m, t)).toBe(true));

  test.each([
    ['delete Chapter 10', 'Chapter 1'],
    ['删除第十章', '第1章'],
    ['删除第十一章', '第一章'],
    ['delete chapter 1', 'Chapter 10'],
    ['delete the Prologue', 'Epilogue'],
    ['delete the Prologues folder', 'Prologue'],
    ['delete episode 3', 'Chapter 3'],
    ['删除第3集', '第3章'],
    ['delete chapters 2 to 5', 'Chapter 6'],
    ['delete everything', 'Chapter 1'],
    ['删掉所有章节', '第一章'],
    ['delete it', 'Chapter 1'],
  ])('"%s" does not authorise deleting "%s"', (m, t) => expect(asks(m, t)).toBe(false));

  test('an empty title is never named', () => expect(asks('delete', '  ')).toBe(false));
});

describe('the verb must govern the clause that names the file', () => {
  test('"keep the Prologue, delete Chapter 4" authorises only Chapter 4', () => {
    const m = 'keep the Prologue, delete Chapter 4';
    expect(asks(m, 'Prologue')).toBe(false);
    expect(asks(m, 'Chapter 4')).toBe(true);
  });
  test.each([
    ['delete Chapter 4 but keep the Prologue', 'Prologue', false],
    ['delete Chapter 4 and keep the Prologue', 'Prologue', false],
    ['delete Chapter 4 and keep the Prologue', 'Chapter 4', true],
    ['保留序章，删掉第四章', '序章', false],
    ['保留序章，删掉第四章', '第四章', true],
    ['删掉第四章，序章留着', '序章', false],
    ['delete Chapter 4, the Prologue stays', 'Prologue', false],
    ["don't delete Chapter 1, delete Chapter 2", 'Chapter 1', false],
    ["don't delete Chapter 1, delete Chapter 2", 'Chapter 2', true],
    ['不要删第一章，删第二章', '第一章', false],
    ['不要删第一章，删第二章', '第二章', true],
    ['别删第一章', '第一章', false],
    ['delete all chapters except Chapter 1', 'Chapter 1', false],
    ['除了第一章都删掉', '第一章', false],
    ['delete chapter 3 but not chapter 4', 'Chapter 4', false],
    ['delete chapter 3 but not chapter 4', 'Chapter 3', true],
    ['polish Chapter 1 and delete Chapter 2', 'Chapter 1', false],
    ['delete Chapter 2 and polish Chapter 1', 'Chapter 1', false],
    ['delete chapter 3, chapter 4', 'Chapter 4', true],
    ['删掉第三章、第四章', '第四章', true],
    ['第四章，删掉', '第四章', true],
    ['Chapter 4 - delete it', 'Chapter 4', true],
    ['delete chapter 4. chapter 5 is fine', 'Chapter 5', false],
    ['read chapter 1. delete chapter 2', 'Chapter 1', false],
    ['delete Chapter 1 but keep Chapter 1', 'Chapter 1', false],
  ])('"%s" → %s: %s', (m, t, expected) => expect(asks(m, t)).toBe(expected));
});

describe('a file named as the reference, a place, or done work is not a target', () => {
  test.each([
    ['以第3章为准，重写第5章', '第3章', 'rewrite', false],
    ['以第3章为准，重写第5章', '第5章', 'rewrite', true],
    ['按第3章的风格重写第5章', '第3章', 'rewrite', false],
    ['按第3章的风格重写第5章', '第5章', 'rewrite', true],
    ['重写第5章，和第3章保持统一', '第3章', 'rewrite', false],
    ['重写第5章，和第3章保持统一', '第5章', 'rewrite', true],
    ['重写第5章，跟第3章一致', '第3章', 'rewrite', false],
    ['参考第3章重写第5章', '第3章', 'rewrite', false],
    ['用第3章的写法重写第5章', '第3章', 'rewrite', false],
    ['rewrite chapter 5 to match chapter 3', 'Chapter 3', 'rewrite', false],
    ['rewrite chapter 5 to match chapter 3', 'Chapter 5', 'rewrite', true],
    ['rewrite chapter 5 like chapter 3', 'Chapter 3', 'rewrite', false],
    ['rewrite chapter 5 based on chapter 3', 'Chapter 3', 'rewrite', false],
    ["rewrite chapter 5 in chapter 3's tone", 'Chapter 3', 'rewrite', false],
    ['rewrite chapter 5, use chapter 3 as the reference', 'Chapter 3', 'rewrite', false],
    ['第3章改好了，重写第4章', '第3章', 'rewrite', false],
    ['第3章改好了，重写第4章', '第4章', 'rewrite', true],
    ['第3章已经重写过了', '第3章', 'rewrite', false],
    ['I already rewrote chapter 3, now rewrite chapter 4', 'Chapter 3', 'rewrite', false],
    ['delete chapter 4 since chapter 3 is done', 'Chapter 3', 'delete', false],
    ['rewrite the ending of chapter 3', 'Chapter 3', 'rewrite', false],
    ['delete the last paragraph in chapter 3', 'Chapter 3', 'delete', false],
    ['删掉第三章的最后一段', '第三章', 'delete', false],
    ['删掉第三章里的对话', '第三章', 'delete', false],
    ['删掉第三章的文件', '第三章', 'delete', true],
    ['rewrite chapter 5 with chapter 3', 'Chapter 3', 'rewrite', false],
    ['delete chapter 4, not chapter 3', 'Chapter 3', 'delete', false],
    ['删除第四章，不包括第三章', '第三章', 'delete', false],
  ])('"%s" → %s (%s): %s', (m, t, action, expected) => expect(asks(m, t, action as AuthorAction)).toBe(expected));
});

describe('the verb must be the one asked for', () => {
  test.each([
    ['rewrite Chapter 2', 'delete', false],
    ['rewrite Chapter 2', 'rewrite', true],
    ['重写第二章', 'rewrite', true],
    ['第二章推翻重写', 'rewrite', true],
    ['redo chapter 2 from scratch', 'rewrite', true],
    ['delete chapter 2', 'rewrite', false],
    ['tighten chapter 2', 'rewrite', false],
    ['润色第二章', 'rewrite', false],
    ['不要重写第二章', 'rewrite', false],
    ['remove chapter 2', 'delete', true],
    ['get rid of chapter 2', 'delete', true],
    ['去掉第二章', 'delete', true],
    ['移除第二章', 'delete', true],
  ])('"%s" → %s: %s', (m, action, expected) => expect(asks(m, 'Chapter 2', action as AuthorAction)).toBe(expected));
});

describe('the open file (focus) counts as named', () => {
  test.each([
    ['delete this', true],
    ['delete this chapter', true],
    ['rewrite it', false],
    ['删掉', true],
    ['请把它删了', true],
    ['删掉这一章', true],
    ['please delete', true],
    ['delete chapter 4', false],
    ['delete everything', false],
    ['keep this, delete chapter 4', false],
    ['this is done, delete chapter 4', false],
    ['what do you think?', false],
  ])('focus on Chapter 1, "%s" → delete: %s', (m, expected) =>
    expect(asks(m, 'Chapter 1', 'delete', 'f1')).toBe(expected),
  );
  test('only the focus file: another file with the same pointing words is not named', () => {
    expect(asks('delete this', 'Chapter 1', 'delete', 'other')).toBe(false);
    expect(asks('delete this', 'Chapter 1', 'delete', null)).toBe(false);
  });
  test('the focus file named by its own title still counts', () =>
    expect(asks('rewrite chapter 1', 'Chapter 1', 'rewrite', 'f1')).toBe(true));
});

describe('clauses', () => {
  test('split on punctuation and conjunctions; "Ch. 10" and "1.5" stay whole', () => {
    expect(
      splitClauses('keep the Prologue, delete Ch. 10 but not 1.5k words').map((c) => [c.sep, c.text.trim()]),
    ).toEqual([
      ['', 'keep the Prologue'],
      [',', 'delete Ch. 10'],
      ['but', 'not 1.5k words'],
    ]);
    expect(splitClauses('保留序章，删掉第四章。然后重写第五章').map((c) => c.text)).toEqual([
      '保留序章',
      '删掉第四章',
      '重写第五章',
    ]);
    expect(splitClauses('')).toEqual([]);
  });
});
