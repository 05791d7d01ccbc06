/**
 * The author messages a job writes for its child turns. They carry ids and short text
 * only — the outline entry, the previous chapter's title and id, the length target, the
 * client's instructions, reviewer notes — so the writer reads chapter text itself through
 * its context (previous chapter at CONSTRAINT priority) and never through workflow history.
 *
 * The chapter number comes first in each message: agents and the offline model read the
 * first chapter a message names as the one asked for.
 */
import { truncate } from '../text';

export type Lang = 'en' | 'zh';

export interface FileRef {
  id: string;
  title: string;
}

export interface ChapterBrief {
  chapter: number;
  lang: Lang;
  outlineEntry: string | null;
  previous: FileRef | null;
  /** A file for this chapter already exists (an earlier attempt, or the author's): rewrite it in place. */
  existing: FileRef | null;
  wordsPerChapter: number | null;
  instructions: string;
}

const limitNote = (lang: Lang) =>
  lang === 'en'
    ? 'Write only this chapter — the job asks for the next one in its own turn. Do not ask the author questions; make reasonable choices.'
    : '只写这一章——下一章由任务在下一轮单独请求。不要向作者提问，自行做出合理的选择。';

function common(b: ChapterBrief): string[] {
  const en = b.lang === 'en';
  const lines: string[] = [];
  // The entry keeps a line of its own, as in the outline, so "Chapter N: Title" reads as a title line.
  lines.push(
    b.outlineEntry
      ? `${en ? 'Outline entry:' : '大纲条目：'}\n${truncate(b.outlineEntry, 400)}`
      : en
        ? 'Outline entry: (the outline has none for this chapter: continue the story naturally)'
        : '大纲条目：（大纲里没有这一章：顺着故事自然往下写）',
  );
  if (b.previous)
    lines.push(
      en
        ? `Previous chapter: "${b.previous.title}" (id=${b.previous.id}) — pick up where it ends and keep names and facts consistent.`
        : `上一章：《${b.previous.title}》(id=${b.previous.id})——从它结尾处接着写，人物和事实保持一致。`,
    );
  if (b.wordsPerChapter)
    lines.push(en ? `Target length: about ${b.wordsPerChapter} words.` : `目标篇幅：约${b.wordsPerChapter}字。`);
  if (b.instructions.trim())
    lines.push(`${en ? 'Instructions from the author: ' : '作者的要求：'}${truncate(b.instructions.trim(), 4000)}`);
  return lines;
}

/** The message of a chapter's first turn. */
export function chapterMessage(b: ChapterBrief): string {
  const en = b.lang === 'en';
  const head = en ? `Write Chapter ${b.chapter} of the story now.` : `现在写第${b.chapter}章。`;
  const target = b.existing
    ? en
      ? `"${b.existing.title}" already exists: rewrite it in place (id=${b.existing.id}) with edit_file, operation "rewrite", instead of creating a new file.`
      : `《${b.existing.title}》已经存在：原地重写它 (id=${b.existing.id})，用 edit_file 的 "rewrite" 操作，不要新建文件。`
    : en
      ? `Create one draft file titled "Chapter ${b.chapter}" and write the whole chapter into it.`
      : `新建一个标题为“第${b.chapter}章”的草稿文件，把整章写进去。`;
  return [head, ...common(b), target, limitNote(b.lang)].join('\n');
}

/** Revising a chapter that existed before the job (`existing: revise`): improve it in place, keep what works. */
export function existingRevisionMessage(b: ChapterBrief & { target: FileRef }): string {
  const en = b.lang === 'en';
  const head = en
    ? `Revise Chapter ${b.chapter}: it already exists. Improve it against the outline entry and the instructions below; keep its story, names and what works.`
    : `修改第${b.chapter}章：这一章已经写好了。对照下面的大纲条目和要求把它改得更好，保留原有情节、人名和写得好的地方。`;
  const target = en
    ? `Work on "${b.target.title}" in place (id=${b.target.id}) with edit_file (precise edits, or operation "rewrite"), never a new file.`
    : `原地修改《${b.target.title}》(id=${b.target.id})，用 edit_file（精确修改，或 "rewrite" 操作），不要新建文件。`;
  return [head, ...common(b), target, limitNote(b.lang)].join('\n');
}

/** The message of a revision round: the reviewer asked for changes. */
export function revisionMessage(b: ChapterBrief & { target: FileRef; reviewerNotes: string; round: number }): string {
  const en = b.lang === 'en';
  const head = en
    ? `Revise Chapter ${b.chapter} (revision round ${b.round}) following the reviewer's notes below.`
    : `按下面审稿意见修改第${b.chapter}章（第${b.round}轮返修）。`;
  const target = en
    ? `Work on "${b.target.title}": rewrite it in place (id=${b.target.id}) with edit_file, operation "rewrite" (or precise edits), never a new file.`
    : `修改《${b.target.title}》：原地重写它 (id=${b.target.id})，用 edit_file 的 "rewrite" 操作（或精确修改），不要新建文件。`;
  const notes = `${en ? 'Reviewer notes:' : '审稿意见：'}\n${truncate(b.reviewerNotes.trim(), 3000)}`;
  return [head, ...common(b), target, notes, limitNote(b.lang)].join('\n');
}

/** The message of the outline turn, when the outline does not cover the job's range. */
export function outlineMessage(o: {
  from: number;
  to: number;
  lang: Lang;
  instructions: string;
  existing: FileRef | null;
  missing: string;
}): string {
  const en = o.lang === 'en';
  const lines = [
    en
      ? `Plan chapters ${o.from}–${o.to}: an outline with one entry per chapter, each on its own line as "Chapter N: Title — what happens", covering every chapter from ${o.from} to ${o.to}.`
      : `规划第${o.from}–${o.to}章：大纲里每章一行，格式为“第N章：标题——梗概”，覆盖第${o.from}章到第${o.to}章的每一章。`,
  ];
  if (o.existing)
    lines.push(
      en
        ? `The outline "${o.existing.title}" (id=${o.existing.id}) has no entries for chapters ${o.missing}: add them (edit_file, operation "append"), or save a complete outline file.`
        : `大纲《${o.existing.title}》(id=${o.existing.id}) 缺少第${o.missing}章的条目：补上（edit_file 的 "append" 操作），或者保存一份完整的大纲文件。`,
    );
  else lines.push(en ? 'Save it as an outline file.' : '保存为大纲文件。');
  if (o.instructions.trim())
    lines.push(`${en ? 'Instructions from the author: ' : '作者的要求：'}${truncate(o.instructions.trim(), 4000)}`);
  lines.push(en ? 'Do not write chapter text and do not ask questions.' : '不要写正文，也不要提问。');
  return lines.join('\n');
}

/** The reviewer's verdict line lives in the core (Studio reads it too); re-exported for the job's callers. */
export { parseVerdict } from '../verdict';
