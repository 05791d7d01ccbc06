/**
 * Manuscript export over real HTTP against real MongoDB: Markdown in chapter order
 * with front matter; DOCX read back with mammoth (headings and paragraphs) and its typography
 * checked in the XML; EPUB unzipped and checked (mimetype first and stored, nav and spine in
 * chapter order, language) and validated by EPUBCheck where Java is present. Bad input is a
 * clear 400, an empty project a 409, another owner's project a 404, and nothing is written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import mammoth from 'mammoth';
import { epubcheck, epubcheckClasspath } from '../helpers/epubcheck';
import { api, createHarness, type Harness } from '../helpers/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ noWorker: true });
});
afterAll(async () => {
  await h?.close();
});

async function project(body: Record<string, unknown>): Promise<string> {
  const p = await api<{ id: string }>(h, 'POST', '/api/v1/projects', { type: 'novel', ...body });
  expect(p.status).toBe(201);
  return p.body.id;
}
async function file(projectId: string, title: string, content: string, type = 'draft'): Promise<string> {
  const f = await api<{ id: string }>(h, 'POST', '/api/v1/files', { projectId, type, title, content });
  expect(f.status).toBe(201);
  return f.body.id;
}
async function download(projectId: string, query: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(`${h.baseUrl}/api/v1/projects/${projectId}/export${query}`);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

const EN_TITLE = 'The Lighthouse Keeper';
const ZH_TITLE = '雾港：灯塔之书';
/** English chapters, created out of order; curly quotes and an apostrophe stay as written. */
const EN = {
  c2: '# Chapter 2: The Visitor\n\n“Who goes there?” she called.\nThe wind didn’t answer.\n\n* * *\n\nMorning came grey.',
  c1: '# Chapter 1: The Storm\n\nThe lamp had burned for forty years.\nTonight it **flickered**.',
  // Markup-looking text is text: escaped in XHTML (EPUBCheck would fail a stray `<` or `&`).
  c10: 'Ten years later, the keeper’s daughter returned.\nShe wrote <b>Tom & Jerry</b> <3 on the wall.',
};
const ZH = {
  c1: '# 第一章 雾起\n\n“你听见了吗？”她轻声问。\n远处的钟声在雾里回荡，一下，又一下。\n他没有回答，只是把灯芯拨亮了一些。',
  c2: '# 第二章 来客\n\n码头上站着一个陌生人。\n‘灯塔还亮着吗？’他问。',
};

let en = '';
let zh = '';
beforeAll(async () => {
  en = await project({ title: EN_TITLE, author: 'Mara Quill', summary: 'A keeper, a storm, a visitor.' });
  await file(en, 'Chapter 2', EN.c2);
  await file(en, 'Chapter 10', EN.c10);
  await file(en, 'Chapter 1', EN.c1);
  await file(en, 'Outline', 'Chapter 1: storm. Chapter 2: visitor.', 'outline');
  // A deleted chapter and an empty one are not part of the book.
  const gone = await file(en, 'Chapter 3', 'Cut scene.');
  expect((await api(h, 'DELETE', `/api/v1/files/${gone}`)).status).toBe(204);
  await file(en, 'Chapter 4', '');
  zh = await project({ title: ZH_TITLE, summary: '雾港小镇的守灯人与一位陌生来客。' });
  await file(zh, '第二章', ZH.c2);
  await file(zh, '第一章', ZH.c1);
});

test('Markdown: front matter, then every chapter in number order with its title, text as written', async () => {
  const r = await download(en, '?format=md');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
  expect(r.headers.get('content-disposition')).toBe(
    `attachment; filename="${EN_TITLE}.md"; filename*=UTF-8''The%20Lighthouse%20Keeper.md`,
  );
  const md = r.body.toString('utf8');
  expect(
    md.startsWith(
      '---\ntitle: "The Lighthouse Keeper"\nauthor: "Mara Quill"\nlang: en\nabstract: "A keeper, a storm, a visitor."\n---\n',
    ),
  ).toBe(true);
  const headings = md.split('\n').filter((l) => l.startsWith('# '));
  expect(headings).toEqual(['# Chapter 1: The Storm', '# Chapter 2: The Visitor', '# Chapter 10']);
  expect(md).toContain('“Who goes there?” she called.\n\nThe wind didn’t answer.\n\n* * *\n\nMorning came grey.');
  expect(md).not.toContain('Cut scene');
  expect(md).not.toContain('Chapter 4');
  // Without front matter the book starts at its first chapter.
  const bare = (await download(en, '?format=md&frontMatter=false')).body.toString('utf8');
  expect(bare.startsWith('# Chapter 1: The Storm\n')).toBe(true);
  // A Chinese title keeps its name through filename*, with an ASCII fallback that says "manuscript".
  const z = await download(zh, '?format=md');
  expect(z.headers.get('content-disposition')).toBe(
    `attachment; filename="manuscript.md"; filename*=UTF-8''${encodeURIComponent(`${ZH_TITLE}.md`)}`,
  );
  const zmd = z.body.toString('utf8');
  expect(zmd).toContain('lang: zh-CN');
  expect(zmd).toContain('# 第一章 雾起\n\n“你听见了吗？”她轻声问。\n\n远处的钟声');
  expect(zmd.indexOf('# 第一章')).toBeLessThan(zmd.indexOf('# 第二章'));
});

test('DOCX: mammoth reads back the title page, the chapter headings in order and their paragraphs; Chinese typography in the XML', async () => {
  const r = await download(en, '?format=docx');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  const html = (await mammoth.convertToHtml({ buffer: r.body })).value;
  const h1s = [...html.matchAll(/<h1>(.*?)<\/h1>/g)].map((m) => m[1]);
  expect(h1s).toEqual(['Chapter 1: The Storm', 'Chapter 2: The Visitor', 'Chapter 10']);
  const paragraphs = [...html.matchAll(/<p>(.*?)<\/p>/g)].map((m) => m[1]);
  expect(paragraphs).toEqual(
    expect.arrayContaining([
      'Mara Quill',
      'A keeper, a storm, a visitor.',
      '“Who goes there?” she called.',
      'The wind didn’t answer.',
      'Tonight it <strong>flickered</strong>.',
    ]),
  );
  expect(paragraphs.indexOf('The lamp had burned for forty years.')).toBeLessThan(
    paragraphs.indexOf('“Who goes there?” she called.'),
  );
  expect(html).toContain(EN_TITLE);

  const z = await download(zh, '?format=docx&frontMatter=false');
  const zHtml = (await mammoth.convertToHtml({ buffer: z.body })).value;
  expect([...zHtml.matchAll(/<h1>(.*?)<\/h1>/g)].map((m) => m[1])).toEqual(['第一章 雾起', '第二章 来客']);
  expect(zHtml).toContain('<p>“你听见了吗？”她轻声问。</p>');
  expect(zHtml).not.toContain(ZH_TITLE);
  const zip = await JSZip.loadAsync(z.body);
  const doc = await zip.file('word/document.xml')!.async('string');
  const styles = await zip.file('word/styles.xml')!.async('string');
  // Every Chinese body paragraph indented two characters; language and East Asian font set.
  expect(doc.match(/w:firstLineChars="200"/g)).toHaveLength(5);
  expect(styles).toMatch(/<w:lang [^>]*w:val="zh-CN"[^>]*w:eastAsia="zh-CN"/);
  expect(styles).toMatch(/w:eastAsia="SimSun"/);
});

test('EPUB: mimetype first and stored, nav and spine in chapter order, the book’s language; EPUBCheck finds nothing', async () => {
  const books: Record<string, Buffer> = {};
  for (const [name, id, q] of [
    ['en', en, ''],
    ['zh', zh, ''],
    ['zh-bare', zh, '&frontMatter=false'],
  ] as const) {
    const r = await download(id, `?format=epub${q}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/epub+zip');
    books[name] = r.body;
  }
  const book = books.en!;
  // OCF: the first local header is `mimetype`, method 0 (stored), no extra field, its text at offset 38.
  expect(book.readUInt32LE(0)).toBe(0x04034b50);
  expect(book.readUInt16LE(8)).toBe(0);
  expect(book.readUInt16LE(26)).toBe(8);
  expect(book.readUInt16LE(28)).toBe(0);
  expect(book.subarray(30, 38).toString()).toBe('mimetype');
  expect(book.subarray(38, 58).toString()).toBe('application/epub+zip');

  const zip = await JSZip.loadAsync(book);
  const opf = await zip.file('OEBPS/content.opf')!.async('string');
  expect(opf).toMatch(/<dc:identifier id="book-id">urn:uuid:[0-9a-f-]{36}<\/dc:identifier>/);
  expect(opf).toContain('<dc:title>The Lighthouse Keeper</dc:title>');
  expect(opf).toContain('<dc:language>en</dc:language>');
  expect(opf).toContain('<dc:creator>Mara Quill</dc:creator>');
  expect(opf).toMatch(/<meta property="dcterms:modified">\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/meta>/);
  expect([...opf.matchAll(/<itemref idref="([^"]+)"/g)].map((m) => m[1])).toEqual(['title', 'ch1', 'ch2', 'ch3']);
  const nav = await zip.file('OEBPS/nav.xhtml')!.async('string');
  expect([...nav.matchAll(/<li><a href="([^"]+)">([^<]+)<\/a><\/li>/g)].map((m) => `${m[1]} ${m[2]}`)).toEqual([
    'chapter-001.xhtml Chapter 1: The Storm',
    'chapter-002.xhtml Chapter 2: The Visitor',
    'chapter-003.xhtml Chapter 10',
  ]);
  const ch2 = await zip.file('OEBPS/chapter-002.xhtml')!.async('string');
  expect(ch2).toContain('<p>“Who goes there?” she called.</p>');
  expect(ch2).toContain('<hr class="scene"/>');
  expect(await zip.file('OEBPS/chapter-003.xhtml')!.async('string')).toContain(
    '<p>She wrote &lt;b&gt;Tom &amp; Jerry&lt;/b&gt; &lt;3 on the wall.</p>',
  );

  const zzip = await JSZip.loadAsync(books.zh!);
  const zch1 = await zzip.file('OEBPS/chapter-001.xhtml')!.async('string');
  expect(zch1).toContain('xml:lang="zh-CN" lang="zh-CN"');
  expect(zch1).toContain('<h1>第一章 雾起</h1>');
  expect(zch1).toContain('<p>“你听见了吗？”她轻声问。</p>');
  // Chinese paragraphs: all indented two characters; the English "no indent after a heading" rule is absent.
  const css = await zzip.file('OEBPS/style.css')!.async('string');
  expect(css).toContain('text-indent: 2em');
  expect(css).not.toContain('h1 + p');
  expect(await zzip.file('OEBPS/content.opf')!.async('string')).toContain('<dc:language>zh-CN</dc:language>');
  expect(Object.keys((await JSZip.loadAsync(books['zh-bare']!)).files)).not.toContain('OEBPS/title.xhtml');

  const cp = epubcheckClasspath();
  if (!cp) {
    console.warn('export.test: no java on this machine; EPUBCheck not run');
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'epub-'));
  for (const [name, buf] of Object.entries(books)) {
    const f = path.join(dir, `${name}.epub`);
    fs.writeFileSync(f, buf);
    const run = epubcheck(cp, f);
    expect({
      name,
      status: run.status,
      out: run.clean,
    }).toEqual({ name, status: 0, out: true });
  }
  fs.rmSync(dir, { recursive: true, force: true });
}, 300_000);

test('bad input is a clear 400, an empty project a 409, another owner’s project a 404; export writes nothing', async () => {
  const bad = await api<{ error: { code: string; message: string; details: unknown } }>(
    h,
    'GET',
    `/api/v1/projects/${en}/export?format=pdf`,
  );
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.body)).toContain('format must be one of md, epub, docx');
  expect((await api(h, 'GET', `/api/v1/projects/${en}/export?format=md&frontMatter=yes`)).status).toBe(400);
  expect((await api(h, 'GET', `/api/v1/projects/${en}/export?format=md&pages=2`)).status).toBe(400);
  const empty = await project({ title: 'Nothing yet' });
  await file(empty, 'Chapter 1', '');
  const none = await api<{ error: { code: string } }>(h, 'GET', `/api/v1/projects/${empty}/export?format=epub`);
  expect(none).toMatchObject({ status: 409, body: { error: { code: 'nothing_to_export' } } });
  const theirs = await h.runtime.models.Project.create({ ownerId: 'someone-else', title: 'Private', type: 'novel' });
  await h.runtime.models.File.create({
    projectId: String(theirs._id),
    ownerId: 'someone-else',
    type: 'draft',
    title: 'Chapter 1',
    content: 'secret',
    words: 1,
  });
  const other = await download(String(theirs._id), '?format=md');
  expect(other.status).toBe(404);
  expect(other.body.toString()).not.toContain('secret');
  // Read-only: every file and version of the project is as it was.
  const snapshot = async () => ({
    files: await h.runtime.models.File.find({ projectId: en }).sort({ _id: 1 }).lean(),
    versions: await h.runtime.models.FileVersion.countDocuments({ projectId: en }),
    project: await h.runtime.models.Project.findById(en).lean(),
  });
  const before = await snapshot();
  for (const format of ['md', 'docx', 'epub']) expect((await download(en, `?format=${format}`)).status).toBe(200);
  expect(await snapshot()).toEqual(before);
});

test('figures: a 30-chapter Chinese book in each format (size and time printed)', async () => {
  const id = await project({ title: '长篇测试', author: '作者', summary: '三十章。' });
  // Varied text (a seeded pick of characters), so compressed sizes are like a real book's.
  const chars =
    '海风从港口吹来带着咸味和铁锈的气息灯塔光在雾中一圈地扫过他她们说话走路看见听到远处近钟声夜晚早晨码头船只水手老人孩子门窗石阶小镇街道雨雪云天色';
  let seed = 7;
  const pick = (): string => chars[(seed = (seed * 1103515245 + 12345) % 2147483648) % chars.length]!;
  const para = (): string => Array.from({ length: 100 }, (_, i) => (i % 17 === 16 ? '，' : pick())).join('') + '。';
  for (let n = 1; n <= 30; n++)
    await file(id, `第${n}章`, `# 第${n}章 雾\n\n${Array.from({ length: 40 }, para).join('\n')}`);
  const lines: string[] = [];
  for (const format of ['md', 'docx', 'epub']) {
    const t0 = performance.now();
    const r = await download(id, `?format=${format}`);
    const ms = performance.now() - t0;
    expect(r.status).toBe(200);
    lines.push(`${format} ${(r.body.length / 1024).toFixed(0)} KB in ${ms.toFixed(0)} ms`);
  }
  console.log(`export of 30 chapters × ~4,000 characters: ${lines.join(' · ')}`);
}, 120_000);
