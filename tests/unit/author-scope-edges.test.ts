/**
 * Author-file protection at its edges (core/words/author-scope.ts): which of a project's files one
 * message authorises deleting or rewriting when it lists files across clauses, takes a range minus
 * a bare number, keeps a file in another sentence or before the order, points back at a topic,
 * asks a question after the order, or names a file only by its unit.
 */
import { type AuthorAction, authorisedFiles } from '../../src/core/words/author-scope';
import { read } from './read';

const file = (title: string, i: number) => ({ id: `f${i}`, title });
const CHAPTERS = ['Prologue', 'Outline', 'Notes', 'Chapter 3', 'Chapter 4', 'Chapter 5', 'Chapter 6', 'Chapter 7'];
const EPISODES = ['Episode 5', 'Episode 6'];
const ZH = ['序章', '大纲', 'Notes', '第三章', '第四章', '第五章', '第六章', '第七章'];

/** The titles of `titles` the message authorises the action on (no file open unless `focus`). */
function allowed(
  message: string,
  titles: string[] = CHAPTERS,
  action: AuthorAction = 'delete',
  focus: string | null = null,
  projectTitles?: string[],
): string[] {
  const files = titles.map(file);
  const focusFileId = focus ? files.find((f) => f.title === focus)!.id : null;
  return authorisedFiles({ reading: read(message), focusFileId, titles: projectTitles }, files, action).map(
    (f) => f.title,
  );
}

describe('a range minus a bare number leaves out that unit of the range', () => {
  test.each([
    ['Delete chapters 3 to 7 except 6', 'delete'],
    ['Rewrite chapters 4 to 7 except 6', 'rewrite'],
  ])('"%s" leaves Chapter 6', (m, action) => {
    const got = allowed(m, [...CHAPTERS, ...EPISODES], action as AuthorAction);
    expect(got).toContain('Chapter 4');
    expect(got).toContain('Chapter 7');
    expect(got).not.toContain('Chapter 6');
    expect(got).not.toContain('Episode 6');
  });

  test('an exception in its own clause leaves its file out of the order', () => {
    expect(allowed('Delete chapters 4 to 7, except chapter 6')).toEqual(['Chapter 4', 'Chapter 5', 'Chapter 7']);
    expect(allowed('第4到第9章全部推倒重写，第6章除外', ZH, 'rewrite')).toEqual(['第四章', '第五章', '第七章']);
  });
});

describe('a keep in another sentence or before the order', () => {
  test('"Keep chapter 6" after the order keeps Chapter 6 of its range', () => {
    expect(allowed('Delete chapters 4 to 7. Keep chapter 6.')).toEqual(['Chapter 4', 'Chapter 5', 'Chapter 7']);
  });

  test('the file a keep names is kept, not the topic before it', () => {
    const got = allowed('Delete chapters 3 to 7. Chapter 5 is weak too, but keep chapter 6.');
    expect(got).toContain('Chapter 5');
    expect(got).not.toContain('Chapter 6');
  });

  test('"don\'t touch it" after a named topic keeps that topic', () => {
    const got = allowed("Chapter 4 is fine, don't touch it. Delete chapters 3 to 5.");
    expect(got).toEqual(['Chapter 3', 'Chapter 5']);
  });

  test('"leave it" after the order keeps what the order named', () => {
    expect(allowed('Delete chapter 4. On reflection, leave it.')).toEqual([]);
  });

  test('"leave it" before the order, with nothing named before it, keeps nothing of the order', () => {
    expect(allowed('Leave it. Delete chapter 4.')).toEqual(['Chapter 4']);
  });
});

describe('clauses of bare references after an order extend its list', () => {
  test.each([
    ['Delete chapter 3, ch 4', ['Chapter 3', 'Chapter 4']],
    ['Delete chapter 3, chapter 4 and chapter 5', ['Chapter 3', 'Chapter 4', 'Chapter 5']],
    ['Delete the Prologue, the Outline', ['Prologue', 'Outline']],
    ['Delete chapter 3, the Outline and the Notes', ['Outline', 'Notes', 'Chapter 3']],
  ])('"%s" authorises %j', (m, want) => expect(allowed(m)).toEqual(want));

  test('a bracket is no list: "Delete the Prologue (chapter 3)" names only the Prologue', () => {
    expect(allowed('Delete the Prologue (chapter 3)')).toEqual(['Prologue']);
  });
});

describe('a pointing order points back at the topic just named', () => {
  test.each([
    ['Notes, Outline, delete both', ['Outline', 'Notes'], CHAPTERS],
    ['Notes，大纲，都删掉', ['大纲', 'Notes'], ZH],
    ['OK, chapter 3, delete it', ['Chapter 3'], CHAPTERS],
  ])('"%s" authorises %j', (m, want, titles) => expect(allowed(m, titles)).toEqual(want));

  test('"it" and a file named beside it are both authorised', () => {
    expect(allowed('Chapter 4 is bad. Delete it and chapter 5.')).toEqual(['Chapter 4', 'Chapter 5']);
  });

  test('"it" goes to the open file only when the message names no file', () => {
    expect(allowed('Anyway, delete it.', CHAPTERS, 'delete', 'Chapter 7')).toEqual(['Chapter 7']);
    expect(allowed('I love chapter 4. Anyway, delete it.', CHAPTERS, 'delete', 'Chapter 7')).toEqual([]);
  });
});

describe('a question after an order asks about it unless it names another file', () => {
  test.each([
    ['Delete chapter 4. Is ch 5 any good?', ['Chapter 4'], CHAPTERS],
    ['删掉第三章。另外第四章要不要重写？', ['第三章'], ZH],
    ['Delete chapter 4. Is it any good?', [], CHAPTERS],
  ])('"%s" authorises %j', (m, want, titles) => expect(allowed(m, titles)).toEqual(want));

  test('a blank title in the project names nothing a question says', () => {
    expect(allowed('Delete chapter 4. Are you sure?', ['Chapter 4'], 'delete', null, [' '])).toEqual([]);
  });
});
