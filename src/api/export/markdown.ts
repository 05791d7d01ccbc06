/**
 * The manuscript as one Markdown file: a YAML metadata block (title, author, lang, the summary
 * as `abstract`: what pandoc and most Markdown tools read as a title page) when front matter is
 * asked for, then each chapter as a level-1 heading with its paragraphs. The text is left
 * exactly as written (quotes, punctuation, emphasis markers), one paragraph per line.
 */
import type { Manuscript } from './manuscript';

/** A YAML scalar: double-quoted with JSON's escapes, which YAML reads the same way. */
const yamlString = (s: string): string => JSON.stringify(s);

export function toMarkdown(m: Manuscript, frontMatter: boolean): string {
  const out: string[] = [];
  if (frontMatter) {
    out.push('---', `title: ${yamlString(m.title)}`);
    if (m.author) out.push(`author: ${yamlString(m.author)}`);
    out.push(`lang: ${m.languageTag}`);
    if (m.summary) out.push(`abstract: ${yamlString(m.summary)}`);
    out.push('---', '');
  }
  for (const ch of m.chapters) {
    out.push(`# ${ch.title}`, '');
    for (const b of ch.blocks) {
      if (b.kind === 'heading') out.push(`## ${b.text}`, '');
      else if (b.kind === 'break') out.push('* * *', '');
      else out.push(b.text, '');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}
