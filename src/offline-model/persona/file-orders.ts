/**
 * The persona's side of an author's order about whole files: delete a chapter, rewrite one
 * from scratch, add character sheets. The agent finds the file in the project's file list
 * (the manifest lines `- <title> (id=<id>, <type>, …)` in its context), calls the tool, and
 * says what became of it once the tool answered — in the author's words, never a tool's name,
 * an id or an error code. Whether a call on the author's own file may go ahead is not the
 * persona's business: the engine's author protection asks the author when their message did
 * not clearly order it, and the agent hears the decision in the tool's answer.
 */
import { isBodyFileType } from '../../core/book/file-types';
import { findUnitRefs, unitOfTitle } from '../../core/words/numerals';
import { seedOf } from '../tokens';
import type { Bank } from './bank';
import { chapterDoc, chapterTitle } from './compose';

/** What the author asks of whole files, read from their words (null: none of these). */
export type FileOrder = { kind: 'delete' | 'rewrite'; chapters: number[] } | { kind: 'characters' };

const DELETE = /\b(delete|remove|trash|discard|get rid of|throw away)\b|删除|删掉|删了|删去|去掉|移除|扔掉/i;
const REWRITE_WHOLE =
  /\b(rewrite|redo|re-?write)\b[^.!?\n]*\b(from scratch|from the ground up|completely|entirely|whole|all over)\b|\b(start|begin)\b[^.!?\n]*\bover\b|推倒重写|推倒重来|从头重写|重新写|整章重写|全部重写|彻底重写|完全重写|重写整/i;
/** A part of a file ("the last paragraph of chapter 3", "第三章第二段") is an edit, not a whole-file order. */
const PART =
  /\b(paragraphs?|sentences?|lines?|scenes?|words?|dialogue|ending|opening|beginning|middle|section|part)\b|段|句|行|场|结尾|开头|对话|部分/i;
const CHARACTERS =
  /\bcharacter\s*(sheets?|profiles?|bios?|files?|notes?)\b|\b(cast|characters?)\b[^.!?\n]*\b(sheets?|profiles?)\b|人物小传|人物设定|角色设定|人物卡|人物档案|角色卡|人物表/i;

/** Clauses of a message: an order's chapters are the ones named in the clause that gives it. */
const CLAUSE_BREAK = /[.!?;,。！？；，\n]+|\b(?:and then|then|and|but)\b|然后|接着|并且|但是|再/i;

const chaptersIn = (clause: string): number[] =>
  findUnitRefs(clause)
    .filter((r) => r.kind === 'chapter')
    .flatMap((r) => Array.from({ length: Math.min(r.to - r.from + 1, 50) }, (_, i) => r.from + i));

/** The order in the author's words, if they give one of these. */
export function fileOrderOf(authorWords: string): FileOrder | null {
  if (CHARACTERS.test(authorWords)) return { kind: 'characters' };
  for (const kind of ['rewrite', 'delete'] as const) {
    const verb = kind === 'rewrite' ? REWRITE_WHOLE : DELETE;
    // "Write chapter 3 and delete chapter 2" deletes chapter 2 only; "delete the last scene of chapter 2" is an edit.
    const clauses = authorWords.split(CLAUSE_BREAK).filter((c) => c && verb.test(c));
    if (clauses.some((c) => PART.test(c))) return null;
    const chapters = [...new Set(clauses.flatMap(chaptersIn))];
    if (chapters.length) return { kind, chapters };
  }
  return null;
}

export interface ListedFile {
  id: string;
  title: string;
  type: string;
}

const MANIFEST_LINE = /^- (.+?) \(id=([0-9a-f]{24}), ([a-z_]+)[,)]/gm;

/** The project's files as the context lists them (latest listing first wins). */
export function listedFiles(contextTexts: string[]): ListedFile[] {
  const seen = new Map<string, ListedFile>();
  for (const text of contextTexts)
    for (const m of text.matchAll(MANIFEST_LINE))
      if (!seen.has(m[2]!)) seen.set(m[2]!, { title: m[1]!, id: m[2]!, type: m[3]! });
  return [...seen.values()];
}

/** The chapter files the numbers name (a chapter's title carries its number in any numeral). */
export function chapterFiles(files: ListedFile[], chapters: number[]): ListedFile[] {
  return files.filter((f) => isBodyFileType(f.type) && chapters.includes(unitOfTitle(f.title)?.n ?? -1));
}

const en = (bank: Bank) => bank.lang === 'en';
const named = (bank: Bank, titles: string[]) =>
  en(bank) ? titles.map((t) => `"${t}"`).join(', ') : titles.map((t) => `《${t}》`).join('、');
const chapterWords = (bank: Bank, chapters: number[]) =>
  en(bank) ? `chapter ${chapters.join(', ')}` : `第${chapters.join('、')}章`;

/** The order cannot be carried out: the chapters it names are not in the project. */
export function nothingToTouch(bank: Bank, chapters: number[]): string {
  return en(bank)
    ? `I can't find ${chapterWords(bank, chapters)} in this project, so nothing was changed. Which file did you mean?`
    : `这个项目里没有找到${chapterWords(bank, chapters)}，所以什么都没有改动。你指的是哪个文件？`;
}

/** The whole new text of a chapter rewritten from scratch. */
export function rewrittenChapter(bank: Bank, file: ListedFile, contextTexts: string[], words: number): string {
  const n = unitOfTitle(file.title)?.n ?? 1;
  return chapterDoc(bank, seedOf(`rewrite|${bank.lang}|${file.id}`), n, chapterTitle(bank, n, contextTexts), words);
}

/** A character sheet for one of the bank's cast, by role. */
export function characterSheet(bank: Bank, role: 'A' | 'B' | 'C'): string {
  const name = bank.cast[role];
  const lines = en(bank)
    ? {
        A: [
          `# ${name}`,
          'Role: protagonist; a lamplighter who keeps the harbour records.',
          'Wants: to learn who altered the ledger, and why her name is in it.',
          'Fears: that the archive remembers her better than she does.',
          'Voice: precise, dry, slow to trust.',
        ],
        B: [
          `# ${name}`,
          `Role: companion; a ferryman who owes ${bank.cast.A} a favour.`,
          'Wants: a quiet life and a boat of his own.',
          'Fears: the fog, and the people who come out of it.',
          'Voice: warm, quick to joke, quicker to leave.',
        ],
        C: [
          `# ${name}`,
          'Role: keeper of secrets; runs the lower archive.',
          'Wants: the ledger to stay closed.',
          'Fears: the second letter.',
          'Voice: courteous, old-fashioned, never quite answers.',
        ],
      }
    : {
        A: [
          `# ${name}`,
          '身份：主角，点灯人，负责保管港口的档案。',
          '想要：查清是谁改动了账册，为什么上面有她的名字。',
          '害怕：档案馆比她自己更记得她的过去。',
          '说话：干脆、冷静，不轻易信任别人。',
        ],
        B: [
          `# ${name}`,
          `身份：同伴，摆渡人，欠${bank.cast.A}一个人情。`,
          '想要：安稳的日子和一条属于自己的船。',
          '害怕：大雾，以及从雾里走出来的人。',
          '说话：热络、爱开玩笑，也最先想走。',
        ],
        C: [
          `# ${name}`,
          '身份：守密人，掌管档案馆的地下室。',
          '想要：让那本账册永远合着。',
          '害怕：第二封信。',
          '说话：客气、老派，从不正面回答。',
        ],
      };
  return lines[role].join('\n');
}

/** What the agent says once the tool answered: the order done, or why not, in the author's words. */
export function afterFileOrder(
  bank: Bank,
  order: 'delete' | 'rewrite' | 'characters',
  results: { title: string; ok: boolean; errorType?: string; words?: number }[],
): string {
  const done = results.filter((r) => r.ok).map((r) => r.title);
  const declined = results.filter((r) => !r.ok && r.errorType === 'author_declined').map((r) => r.title);
  const unanswered = results.filter((r) => !r.ok && r.errorType === 'approval_timeout').map((r) => r.title);
  const failed = results
    .filter((r) => !r.ok && r.errorType !== 'author_declined' && r.errorType !== 'approval_timeout')
    .map((r) => r.title);
  const out: string[] = [];
  if (done.length)
    out.push(
      order === 'delete'
        ? en(bank)
          ? `${named(bank, done)} ${done.length > 1 ? 'are' : 'is'} in the trash; you can restore ${done.length > 1 ? 'them' : 'it'} from the Trash.`
          : `${named(bank, done)}已移到回收站，可以在回收站里恢复。`
        : order === 'rewrite'
          ? en(bank)
            ? `${named(bank, done)} ${done.length > 1 ? 'are' : 'is'} rewritten from scratch${results[0]?.words ? ` (${results[0].words} words)` : ''}; the earlier text is in ${done.length > 1 ? 'their' : 'its'} history.`
            : `${named(bank, done)}已推倒重写${results[0]?.words ? `（${results[0].words}字）` : ''}，原来的文字在历史版本里。`
          : en(bank)
            ? `Character sheets saved: ${named(bank, done)}.`
            : `人物小传已保存：${named(bank, done)}。`,
    );
  const action = en(bank) ? (order === 'delete' ? 'delete' : 'rewrite') : order === 'delete' ? '删除' : '重写';
  if (declined.length)
    out.push(
      en(bank)
        ? `${named(bank, declined)} ${declined.length > 1 ? 'stay' : 'stays'} as ${declined.length > 1 ? 'they are' : 'it is'}: you chose not to ${action} ${declined.length > 1 ? 'them' : 'it'}.`
        : `${named(bank, declined)}保持原样：你没有同意${action}。`,
    );
  if (unanswered.length)
    out.push(
      en(bank)
        ? `${named(bank, unanswered)} ${unanswered.length > 1 ? 'stay' : 'stays'} as ${unanswered.length > 1 ? 'they are' : 'it is'}: no answer came in time.`
        : `${named(bank, unanswered)}保持原样：没有及时收到你的答复。`,
    );
  if (failed.length)
    out.push(
      order === 'characters'
        ? en(bank)
          ? `${named(bank, failed)} already ${failed.length > 1 ? 'have sheets' : 'has a sheet'}, so I left ${failed.length > 1 ? 'them' : 'it'} as ${failed.length > 1 ? 'they are' : 'it is'}.`
          : `${named(bank, failed)}已经有人物小传，保持原样。`
        : en(bank)
          ? `I could not ${action} ${named(bank, failed)}, so ${failed.length > 1 ? 'they are' : 'it is'} unchanged.`
          : `${named(bank, failed)}没能${action}，保持原样。`,
    );
  return out.join(' ');
}
