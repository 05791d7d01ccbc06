/**
 * The manuscript's pure rules: one order for tree, board, pages and search; renumbering a
 * title in the style it was written in; a move that keeps the book's numbers; outline
 * entries as titles and synopses; search that finds Chinese inside words and a phrase across
 * a line break, with offsets that point at the text as stored.
 */
import {
  chineseNumeral,
  inTreeOrder,
  keepChapterNumber,
  planMove,
  planRenumber,
  renumberTitle,
} from '../../src/core/book/chapter-order';
import { outlineEntries, outlineLines } from '../../src/core/book/outline';
import { findHits, phrasePattern, searchFiles } from '../../src/core/book/search';

const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i));
const file = (id: string, type: string, title: string, order = 0, created = 0) => ({
  id,
  type,
  title,
  order,
  createdAt: at(created),
});

test('the manuscript order: by type, chapters by the number the core reads (“Chapter Ten” is 10), unnumbered where their order puts them', () => {
  const files = [
    file('a', 'draft', 'Chapter Ten', 0, 1),
    file('b', 'draft', 'Epilogue', 0, 2),
    file('c', 'outline', 'Outline', 5, 3),
    file('d', 'draft', 'Chapter 2: The Visitor', 9, 4),
    file('e', 'character', 'Mara', 0, 5),
    file('f', 'draft', '第三章 来客', 0, 6),
    file('g', 'draft', 'Prologue', 0, 0),
    file('h', 'folder', 'Part I', 0, 0),
    file('i', 'draft', 'Chapter 2 (AI draft)', 1, 7),
  ];
  // The prologue was made first and stays first; the epilogue, made after chapter ten, follows it.
  expect(inTreeOrder(files).map((f) => f.id)).toEqual(['c', 'e', 'g', 'i', 'd', 'f', 'a', 'b', 'h']);
  // Without dates (as a client may hold a list), ties go by order, then id: both land after chapter ten.
  const undated = files.map(({ createdAt: _, ...f }) => f);
  expect(inTreeOrder(undated).map((f) => f.id)).toEqual(['c', 'e', 'i', 'd', 'f', 'a', 'b', 'g', 'h']);
});

test.each([
  ['Chapter 3: The Bell', 2, 'Chapter 2: The Bell'],
  ['第三章 钟声', 2, '第二章 钟声'],
  ['第十二章', 21, '第二十一章'],
  ['第3章 退潮', 12, '第12章 退潮'],
  ['第３章', 4, '第４章'],
  ['Chapter Ten', 9, 'Chapter Nine'],
  ['CHAPTER TEN', 21, 'CHAPTER TWENTY-ONE'],
  ['chapter ten', 100, 'chapter 100'],
  ['Chapter 03', 2, 'Chapter 02'],
  ['Ch. 7 – Fog', 8, 'Ch. 8 – Fog'],
  ['Chapter 1: 1984', 2, 'Chapter 2: 1984'],
  ['Episode 4', 3, 'Episode 3'],
])('renumbering “%s” to %i gives “%s”', (title, n, expected) => {
  expect(renumberTitle(title, n)).toBe(expected);
});

test('a renamed chapter keeps its number unless the new title names one: its place in the book', () => {
  expect(keepChapterNumber('Chapter 2', 'Salt and Ash')).toBe('Chapter 2: Salt and Ash');
  expect(keepChapterNumber('Chapter 2: The Bell', 'Salt and Ash')).toBe('Chapter 2: Salt and Ash');
  expect(keepChapterNumber('第2章 旧港', '雨夜')).toBe('第2章 雨夜');
  expect(keepChapterNumber('第十二章', '归途')).toBe('第十二章 归途');
  expect(keepChapterNumber('The Bell (Chapter 4)', 'Night Ferry')).toBe('Chapter 4: Night Ferry');
  // A new number is the author's own choice; a title that named none stays as typed.
  expect(keepChapterNumber('Chapter 2', 'Chapter 5: Salt')).toBe('Chapter 5: Salt');
  expect(keepChapterNumber('Prologue', 'Before the storm')).toBe('Before the storm');
});

test('titles without one unit are not renumbered', () => {
  expect(renumberTitle('Prologue', 1)).toBeNull();
  expect(renumberTitle('Chapters 2-3', 1)).toBeNull();
});

test('Chinese numerals as chapter titles write them', () => {
  expect([1, 10, 11, 20, 21, 100, 101, 105, 110, 120, 999, 1000, 1001, 1010].map(chineseNumeral)).toEqual([
    '一',
    '十',
    '十一',
    '二十',
    '二十一',
    '一百',
    '一百零一',
    '一百零五',
    '一百一十',
    '一百二十',
    '九百九十九',
    '一千',
    '一千零一',
    '一千零一十',
  ]);
});

const seq = (...titles: string[]) => titles.map((title, i) => ({ id: `f${i + 1}`, title }));

test('moving chapter 3 to second place renumbers it and the chapter it passed; the others keep their titles', () => {
  const plan = planMove(
    seq('Chapter 1: Storm', 'Chapter 2: Visitor', 'Chapter 3: The Bell', 'Chapter 4: Tide'),
    'f3',
    1,
  );
  expect(plan.ids).toEqual(['f1', 'f3', 'f2', 'f4']);
  expect([...plan.renames]).toEqual([
    ['f3', 'Chapter 2: The Bell'],
    ['f2', 'Chapter 3: Visitor'],
  ]);
});

test('a move in Chinese numerals, to the front: every chapter before it shifts by one', () => {
  const plan = planMove(seq('第一章 雾起', '第二章 来客', '第三章 钟声'), 'f3', 0);
  expect(plan.ids).toEqual(['f3', 'f1', 'f2']);
  expect(Object.fromEntries(plan.renames)).toEqual({ f3: '第一章 钟声', f1: '第二章 雾起', f2: '第三章 来客' });
});

test('a move keeps the numbers the book uses (a gap stays a gap) and leaves unnumbered chapters alone', () => {
  const plan = planMove(seq('Chapter 1', 'Chapter 2', 'Chapter 5', 'Epilogue'), 'f3', 0);
  expect(Object.fromEntries(plan.renames)).toEqual({ f3: 'Chapter 1', f1: 'Chapter 2', f2: 'Chapter 5' });
  expect(plan.ids).toEqual(['f3', 'f1', 'f2', 'f4']);
  // Moving to where it is changes nothing; a target past the end is the end.
  expect(planMove(seq('Chapter 1', 'Chapter 2'), 'f2', 1).renames.size).toBe(0);
  expect(planMove(seq('Chapter 1', 'Chapter 2', 'Chapter 3'), 'f1', 99).ids).toEqual(['f2', 'f3', 'f1']);
});

/** The files as a reorder leaves them (`order` = place, renamed titles), read back in the manuscript's order. */
function applied(titles: string[], plan: ReturnType<typeof planMove>): string[] {
  const files = titles.map((title, i) => ({ id: `f${i + 1}`, type: 'draft', title, order: i }));
  const after = files.map((f) => ({ ...f, order: plan.ids.indexOf(f.id), title: plan.renames.get(f.id) ?? f.title }));
  return inTreeOrder(after).map((f) => f.title);
}

test('after any move the manuscript order is the order asked for: with a prologue and an epilogue, and with no numbers at all', () => {
  const book = ['Prologue', 'Chapter 1: Storm', 'Chapter 2: Visitor', 'Chapter 3: Bell', 'Epilogue'];
  expect(applied(book, planMove(seq(...book), 'f4', 0))).toEqual([
    'Chapter 1: Bell',
    'Prologue',
    'Chapter 2: Storm',
    'Chapter 3: Visitor',
    'Epilogue',
  ]);
  expect(applied(book, planMove(seq(...book), 'f1', 2))).toEqual([
    'Chapter 1: Storm',
    'Chapter 2: Visitor',
    'Prologue',
    'Chapter 3: Bell',
    'Epilogue',
  ]);
  expect(applied(book, planMove(seq(...book), 'f5', 0))).toEqual([
    'Epilogue',
    'Prologue',
    'Chapter 1: Storm',
    'Chapter 2: Visitor',
    'Chapter 3: Bell',
  ]);
  const story = ['Opening', 'The Storm', 'Ending'];
  const plan = planMove(seq(...story), 'f3', 0);
  expect(plan.renames.size).toBe(0);
  expect(applied(story, plan)).toEqual(['Ending', 'Opening', 'The Storm']);
});

test('renumbering closes gaps from 1 (or from 0 when the book has a chapter 0)', () => {
  expect(Object.fromEntries(planRenumber(seq('Chapter 1', 'Chapter 4', 'Afterword', 'Chapter 7')).renames)).toEqual({
    f2: 'Chapter 2',
    f4: 'Chapter 3',
  });
  expect(Object.fromEntries(planRenumber(seq('Chapter 0: Before', 'Chapter 3')).renames)).toEqual({ f2: 'Chapter 1' });
});

const OUTLINE = `# The Lighthouse — Outline

Chapter 1: The Storm — Mara sees the lamp fail.
## Chapter 2: The Visitor
A stranger waits at the pier.
- **Chapter 3**: The ledger's secret is out and everyone in town hears of it before nightfall.
第4章：退潮——玛拉找到账本。
第五章 归航
`;

test('outline entries: the name after the number and a one-line synopsis (the line, or the prose under a heading)', () => {
  const e = outlineEntries([OUTLINE]);
  expect([...e.keys()]).toEqual([1, 2, 3, 4, 5]);
  expect(e.get(1)).toEqual({ n: 1, label: 'Chapter 1', title: 'The Storm', synopsis: 'Mara sees the lamp fail.' });
  expect(e.get(2)).toMatchObject({ title: 'The Visitor', synopsis: 'A stranger waits at the pier.' });
  expect(e.get(3)).toMatchObject({
    title: '',
    synopsis: "The ledger's secret is out and everyone in town hears of it before nightfall.",
  });
  expect(e.get(4)).toEqual({ n: 4, label: '第4章', title: '退潮', synopsis: '玛拉找到账本。' });
  expect(e.get(5)).toMatchObject({ label: '第五章', title: '归航', synopsis: '' });
  // The job's reading of the same outline: the entry lines as written.
  expect(outlineLines([OUTLINE]).get(4)).toBe('第4章：退潮——玛拉找到账本。');
});

test('search: case-insensitive, Chinese inside words, a phrase across a line break, offsets into the stored text', () => {
  const text = 'The tide came in at dusk.\nMara counted the lamps.\n远处的灯塔还亮着吗？她问。';
  const hits = findHits(text, phrasePattern(['LAMPS']), 5);
  expect(hits.count).toBe(1);
  expect(text.slice(hits.hits[0]!.from, hits.hits[0]!.to)).toBe('lamps');
  expect(hits.hits[0]).toMatchObject({ before: 'Mara counted the ', match: 'lamps', after: '.' });
  const zh = findHits(text, phrasePattern(['灯塔']), 5);
  expect(zh.hits[0]).toMatchObject({ match: '灯塔', before: '远处的', after: '还亮着吗？她问。' });
  expect(findHits(text, phrasePattern(['dusk.', 'Mara']), 5).count).toBe(1);
  // Regex characters are text.
  expect(findHits('a (b) c', phrasePattern(['(b)']), 5).count).toBe(1);
});

test('search across files: title matches first, every hit counted; words that are never a phrase find files holding all of them', () => {
  const files = [
    { id: '1', title: 'Chapter 1', content: 'The bell rang twice. The bell stopped.' },
    { id: '2', title: 'The Bell', content: 'Nothing here.' },
    { id: '3', title: 'Chapter 3', content: 'A lamp, and far off, a bell.' },
  ];
  const r = searchFiles(files, 'bell');
  expect(r.results.map((f) => [f.id, f.titleMatch, f.count])).toEqual([
    ['2', true, 0],
    ['1', false, 2],
    ['3', false, 1],
  ]);
  const words = searchFiles(files, 'lamp bell');
  expect(words.mode).toBe('words');
  expect(words.results.map((f) => f.id)).toEqual(['3']);
  expect(words.results[0]!.hits.map((h) => h.match)).toEqual(['lamp', 'bell']);
  expect(searchFiles(files, '   ').results).toEqual([]);
});
