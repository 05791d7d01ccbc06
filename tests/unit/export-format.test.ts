/**
 * The export's pure rules: which file is each chapter, how a chapter's text becomes
 * blocks, and a download name no title can break out of.
 */
import { chapterOf, inlineRuns, pickChapters } from '../../src/api/export/manuscript';
import { contentDisposition } from '../../src/api/routes/export';

const f = (
  title: string,
  over: Partial<{ content: string; words: number; order: number; updatedAt: Date; keptFrom: unknown }> = {},
) => ({
  id: title,
  type: 'draft',
  title,
  content: over.content ?? `${title} text`,
  words: over.words ?? 2,
  order: over.order ?? 0,
  createdAt: new Date(0),
  updatedAt: over.updatedAt ?? new Date(1000),
  keptFrom: over.keptFrom ?? null,
});

test('chapters by the number their title names, in any numeral; one file per number, the author’s over an AI draft', () => {
  const picked = pickChapters([
    f('第十章'),
    f('Chapter 2'),
    f('第一章 风暴'),
    f('Chapter 2 (AI draft)', { keptFrom: { fileId: 'x', reason: 'author_edited' }, updatedAt: new Date(5000) }),
    f('Chapter 3', { words: 0, content: '' }),
  ]);
  expect(picked.map((p) => p.title)).toEqual(['第一章 风暴', 'Chapter 2', '第十章']);
  // Of two live files for one chapter, the one updated last.
  expect(
    pickChapters([
      f('Chapter 1', { content: 'old', updatedAt: new Date(1) }),
      f('Ch. 1', { content: 'new', updatedAt: new Date(2) }),
    ]).map((p) => p.content),
  ).toEqual(['new']);
  // A chapter whose title names no number — renamed by the author, or a prologue — is in the
  // book where the manuscript tree shows it, never left out.
  expect(
    pickChapters([
      f('Chapter 3', { order: 3 }),
      f('Salt and Ash', { order: 2 }),
      f('Chapter 1', { order: 1 }),
      f('Prologue', { order: 0 }),
      f('Epilogue', { order: 9 }),
    ]).map((p) => p.title),
  ).toEqual(['Prologue', 'Chapter 1', 'Salt and Ash', 'Chapter 3', 'Epilogue']);
  // No numbered files (a short story): its body files in the tree's order.
  expect(pickChapters([f('Part two', { order: 2 }), f('Part one', { order: 1 })]).map((p) => p.title)).toEqual([
    'Part one',
    'Part two',
  ]);
});

test('a chapter’s text: its own heading becomes the title; one line one paragraph; scene breaks and sub-headings kept; quotes untouched', () => {
  const ch = chapterOf('第一章', '\n# 第一章 雾起\n“你好，”她说。\n\n＊＊＊\n## 夜\n他走了。\u0007');
  expect(ch).toEqual({
    title: '第一章 雾起',
    blocks: [
      { kind: 'para', text: '“你好，”她说。' },
      { kind: 'break' },
      { kind: 'heading', text: '夜' },
      { kind: 'para', text: '他走了。' },
    ],
  });
  expect(chapterOf('Chapter 2', 'No heading here.').title).toBe('Chapter 2');
  expect(inlineRuns('A **bold** and *quiet* word, 2 * 3 * 4.')).toEqual([
    { text: 'A ' },
    { text: 'bold', bold: true },
    { text: ' and ' },
    { text: 'quiet', italic: true },
    { text: ' word, 2 * 3 * 4.' },
  ]);
});

test('the download name: ASCII fallback plus RFC 5987 filename*, nothing that ends the header or names a path', () => {
  expect(contentDisposition('The Keeper', 'epub')).toBe(
    `attachment; filename="The Keeper.epub"; filename*=UTF-8''The%20Keeper.epub`,
  );
  expect(contentDisposition('雾港', 'md')).toBe(
    `attachment; filename="manuscript.md"; filename*=UTF-8''%E9%9B%BE%E6%B8%AF.md`,
  );
  expect(contentDisposition('Café ', 'docx')).toBe(`attachment; filename="Cafe.docx"; filename*=UTF-8''Caf%C3%A9.docx`);
  const evil = contentDisposition('a"\r\nSet-Cookie: x=1; ../../etc/passwd\\', 'md');
  expect(evil).not.toMatch(/[\r\n]/);
  expect(evil).toMatch(/^attachment; filename="[^"/\\]*\.md"; filename\*=UTF-8''[A-Za-z0-9%._~!-]+$/);
  expect(contentDisposition('', 'md')).toContain('filename="manuscript.md"');
});
