/**
 * The manuscript as an EPUB 3 book, zipped with `jszip` (never a hand-written zip writer).
 * The skeleton, checked by EPUBCheck in tests/api/export.test.ts:
 *   mimetype                 first entry, stored uncompressed (OCF: readers sniff it at offset 38)
 *   META-INF/container.xml   points at the package document
 *   OEBPS/content.opf        dc:identifier (stable per project), dc:title, dc:language,
 *                            dcterms:modified, dc:creator / dc:description when known; manifest; spine
 *   OEBPS/nav.xhtml          the EPUB 3 navigation document (toc)
 *   OEBPS/title.xhtml        the front matter, when asked for
 *   OEBPS/chapter-NNN.xhtml  one XHTML file per chapter, in order
 *   OEBPS/style.css          typography by language (see bookCss)
 */
import { createHash } from 'node:crypto';
import JSZip from 'jszip';
import { type Block, type Chapter, inlineRuns, type Manuscript } from './manuscript';

/** XML text and attribute escaping; quotes in text are left as written (curly or straight). */
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const attr = (s: string): string => esc(s).replace(/"/g, '&quot;');

/**
 * Chinese: every paragraph indented two full-width characters, justified, no hyphenation (the
 * English "no indent after a heading" rule is not applied: it would make the first paragraph
 * look like a fragment). English: indented paragraphs except the first after a heading or a
 * scene break, hyphenation on.
 */
function bookCss(m: Manuscript): string {
  const common = `body { margin: 0 5%; }
h1 { text-align: center; margin: 2em 0 1.5em; font-size: 1.5em; }
h2 { margin: 1.5em 0 1em; font-size: 1.2em; }
p { margin: 0; text-align: justify; }
hr.scene { border: none; margin: 1.2em 0; text-align: center; }
hr.scene::after { content: "* * *"; }
.front { text-align: center; }
.front p { text-indent: 0; text-align: center; margin: 1em 0; }
`;
  if (m.language === 'zh')
    return `${common}p { text-indent: 2em; line-height: 1.8; hyphens: none; line-break: strict; }\n`;
  return `${common}p { text-indent: 1.5em; line-height: 1.5; hyphens: auto; -epub-hyphens: auto; }
h1 + p, h2 + p, hr + p, .front p { text-indent: 0; }
`;
}

function xhtml(m: Manuscript, title: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${m.languageTag}" lang="${m.languageTag}">
<head>
<meta charset="UTF-8"/>
<title>${esc(title)}</title>
<link rel="stylesheet" type="text/css" href="style.css"/>
</head>
<body>
${body}
</body>
</html>
`;
}

const inline = (text: string): string =>
  inlineRuns(text)
    .map((r) => (r.bold ? `<strong>${esc(r.text)}</strong>` : r.italic ? `<em>${esc(r.text)}</em>` : esc(r.text)))
    .join('');

function blockHtml(b: Block): string {
  if (b.kind === 'heading') return `<h2>${esc(b.text)}</h2>`;
  if (b.kind === 'break') return '<hr class="scene"/>';
  return `<p>${inline(b.text)}</p>`;
}

const chapterFile = (i: number): string => `chapter-${String(i + 1).padStart(3, '0')}.xhtml`;

function chapterXhtml(m: Manuscript, ch: Chapter): string {
  const body = [
    `<section epub:type="chapter" role="doc-chapter">`,
    `<h1>${esc(ch.title)}</h1>`,
    ...ch.blocks.map(blockHtml),
    '</section>',
  ].join('\n');
  return xhtml(m, ch.title, body);
}

function titleXhtml(m: Manuscript): string {
  const parts = [`<section epub:type="titlepage" class="front">`, `<h1>${esc(m.title)}</h1>`];
  if (m.author) parts.push(`<p class="author">${esc(m.author)}</p>`);
  for (const line of m.summary.split(/\n+/).filter((l) => l.trim())) parts.push(`<p>${esc(line.trim())}</p>`);
  parts.push('</section>');
  return xhtml(m, m.title, parts.join('\n'));
}

function navXhtml(m: Manuscript, frontMatter: boolean): string {
  const items = m.chapters.map((ch, i) => `<li><a href="${chapterFile(i)}">${esc(ch.title)}</a></li>`);
  const heading = m.language === 'zh' ? '目录' : 'Contents';
  const landmarks = frontMatter
    ? `<nav epub:type="landmarks" hidden="hidden"><ol><li><a epub:type="titlepage" href="title.xhtml">${esc(m.title)}</a></li><li><a epub:type="bodymatter" href="${chapterFile(0)}">${esc(m.chapters[0]!.title)}</a></li></ol></nav>`
    : '';
  return xhtml(
    m,
    heading,
    `<nav epub:type="toc" id="toc"><h1>${heading}</h1><ol>\n${items.join('\n')}\n</ol></nav>${landmarks}`,
  );
}

/** A UUID derived from the project id: the same book keeps the same identifier across exports. */
function bookUuid(projectId: string): string {
  const h = createHash('sha256').update(`scriptorium-book:${projectId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function packageOpf(m: Manuscript, frontMatter: boolean): string {
  const modified = m.updatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const meta = [
    `<dc:identifier id="book-id">urn:uuid:${bookUuid(m.projectId)}</dc:identifier>`,
    `<dc:title>${esc(m.title)}</dc:title>`,
    `<dc:language>${m.languageTag}</dc:language>`,
    `<meta property="dcterms:modified">${modified}</meta>`,
    ...(m.author ? [`<dc:creator>${esc(m.author)}</dc:creator>`] : []),
    ...(m.summary ? [`<dc:description>${esc(m.summary)}</dc:description>`] : []),
  ];
  const manifest = [
    '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
    '<item id="css" href="style.css" media-type="text/css"/>',
    ...(frontMatter ? ['<item id="title" href="title.xhtml" media-type="application/xhtml+xml"/>'] : []),
    ...m.chapters.map((_, i) => `<item id="ch${i + 1}" href="${chapterFile(i)}" media-type="application/xhtml+xml"/>`),
  ];
  const spine = [
    ...(frontMatter ? ['<itemref idref="title"/>'] : []),
    ...m.chapters.map((_, i) => `<itemref idref="ch${i + 1}"/>`),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${attr(m.languageTag)}">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
${meta.join('\n')}
</metadata>
<manifest>
${manifest.join('\n')}
</manifest>
<spine>
${spine.join('\n')}
</spine>
</package>
`;
}

const CONTAINER = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles>
<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
</rootfiles>
</container>
`;

/** The book; `m` has at least one chapter (the route refuses an empty manuscript). */
export async function toEpub(m: Manuscript, frontMatter: boolean): Promise<Buffer> {
  const zip = new JSZip();
  // First, and stored: jszip keeps insertion order, and STORE here overrides the DEFLATE below.
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file('META-INF/container.xml', CONTAINER);
  zip.file('OEBPS/content.opf', packageOpf(m, frontMatter));
  zip.file('OEBPS/nav.xhtml', navXhtml(m, frontMatter));
  zip.file('OEBPS/style.css', bookCss(m));
  if (frontMatter) zip.file('OEBPS/title.xhtml', titleXhtml(m));
  m.chapters.forEach((ch, i) => zip.file(`OEBPS/${chapterFile(i)}`, chapterXhtml(m, ch)));
  // A fixed date: the same manuscript zips to the same bytes (entries would otherwise carry "now").
  const date = m.updatedAt;
  zip.forEach((_, f) => (f.date = date));
  return zip.generateAsync({
    type: 'nodebuffer',
    compression: 'DEFLATE',
    compressionOptions: { level: 9 },
    mimeType: 'application/epub+zip',
  });
}
