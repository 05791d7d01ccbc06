/**
 * The manuscript as a Word document (the `docx` package): a title page when front matter is
 * asked for, then each chapter on a new page as Heading 1, its paragraphs in the document's
 * default style.
 *
 * Typography by language: the language of every run is set (`w:lang`, East Asian `zh-CN` for
 * Chinese books), with a CJK font for East Asian text. Chinese paragraphs are all indented by
 * two characters (`firstLineChars`, so the indent follows the font size) and justified;
 * English ones by a third of an inch, except the first after a heading or a scene break, the
 * English book convention that would leave Chinese paragraphs looking broken.
 */
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { type Block, inlineRuns, type Manuscript } from './manuscript';

const TWIPS_PER_INCH = 1440;

function bodyParagraph(m: Manuscript, text: string, indent: boolean): Paragraph {
  const zh = m.language === 'zh';
  return new Paragraph({
    children: inlineRuns(text).map((r) => new TextRun({ text: r.text, bold: r.bold, italics: r.italic })),
    alignment: AlignmentType.JUSTIFIED,
    indent: zh ? { firstLineChars: 200 } : indent ? { firstLine: TWIPS_PER_INCH / 3 } : undefined,
  });
}

function chapterParagraphs(m: Manuscript, blocks: Block[]): Paragraph[] {
  const out: Paragraph[] = [];
  let afterBreak = true;
  for (const b of blocks) {
    if (b.kind === 'heading') out.push(new Paragraph({ text: b.text, heading: HeadingLevel.HEADING_2 }));
    else if (b.kind === 'break') out.push(new Paragraph({ text: '* * *', alignment: AlignmentType.CENTER }));
    else out.push(bodyParagraph(m, b.text, !afterBreak));
    afterBreak = b.kind !== 'para';
  }
  return out;
}

function titlePage(m: Manuscript): Paragraph[] {
  const page: Paragraph[] = [
    new Paragraph({ text: m.title, heading: HeadingLevel.TITLE, alignment: AlignmentType.CENTER }),
  ];
  if (m.author) page.push(new Paragraph({ text: m.author, alignment: AlignmentType.CENTER, spacing: { before: 240 } }));
  if (m.summary)
    for (const line of m.summary.split(/\n+/).filter((l) => l.trim()))
      page.push(new Paragraph({ text: line.trim(), alignment: AlignmentType.CENTER, spacing: { before: 240 } }));
  return page;
}

export async function toDocx(m: Manuscript, frontMatter: boolean): Promise<Buffer> {
  const zh = m.language === 'zh';
  const children: Paragraph[] = frontMatter ? titlePage(m) : [];
  m.chapters.forEach((ch, i) => {
    const pageBreak = i > 0 || frontMatter;
    children.push(
      new Paragraph({ heading: HeadingLevel.HEADING_1, pageBreakBefore: pageBreak, children: [new TextRun(ch.title)] }),
    );
    children.push(...chapterParagraphs(m, ch.blocks));
  });
  const doc = new Document({
    title: m.title,
    ...(m.author ? { creator: m.author } : {}),
    ...(m.summary ? { description: m.summary } : {}),
    styles: {
      default: {
        document: {
          run: {
            size: 24,
            font: { ascii: 'Times New Roman', hAnsi: 'Times New Roman', eastAsia: zh ? 'SimSun' : 'Times New Roman' },
            language: { value: zh ? 'zh-CN' : 'en-US', eastAsia: 'zh-CN' },
          },
          paragraph: { spacing: { line: zh ? 360 : 300 } },
        },
      },
    },
    sections: [{ children }],
  });
  return Packer.toBuffer(doc);
}
