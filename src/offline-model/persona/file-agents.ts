/**
 * The planner, hook designer and writer personas. All three follow the file streaming
 * protocol: a fresh run calls `create_file` without content; once the tool
 * answers ok, the agent streams a lead-in line and a `<file>` … `</file>` block and stops
 * right after `</file>`; in the continuation round that follows it only sums up.
 */
import { countWords } from '../../core/text';
import { messageText, seedOf } from '../tokens';
import type { ChatMessage } from '../types';
import type { Bank } from './bank';
import { chapterDoc, chapterTitle, hooksDoc, novelTitle, outlineDoc, requestedRange } from './compose';

export type FileAgent = 'planner' | 'hook_designer' | 'writer';

/** What a persona step needs to know about the request. */
export interface FileAgentContext {
  bank: Bank;
  /** The author's latest words (packets stripped). */
  authorWords: string;
  chapter: number;
  chapterWords: number;
  /** Non-system message texts, latest first: where an outline or a saved file may be found. */
  contextTexts: string[];
}

interface FileAgentSpec {
  fileType: 'outline' | 'setting' | 'draft';
  title(ctx: FileAgentContext): string;
  leadIn(ctx: FileAgentContext): string;
  document(ctx: FileAgentContext): string;
  /** The continuation round's summary; `words` is counted from the saved file when it is in view. */
  summary(ctx: FileAgentContext, words: number | null): string;
}

const en = (ctx: FileAgentContext) => ctx.bank.lang === 'en';

/** Chapters in the outline: ten, or through the last chapter of a range the author named. */
const outlineSize = (ctx: FileAgentContext): number => Math.max(10, requestedRange(ctx.authorWords)?.to ?? 10);

const SPECS: Record<FileAgent, FileAgentSpec> = {
  planner: {
    fileType: 'outline',
    title: (ctx) => (en(ctx) ? 'Outline' : '大纲'),
    leadIn: (ctx) => {
      const n = outlineSize(ctx);
      if (n === 10)
        return en(ctx) ? 'Here is a ten-chapter outline to build on.' : '下面是一份十章的大纲，可以在此基础上展开。';
      return en(ctx) ? `Here is a ${n}-chapter outline to build on.` : `下面是一份${n}章的大纲，可以在此基础上展开。`;
    },
    document: (ctx) => {
      const seed = seedOf(`planner|${ctx.bank.lang}|${ctx.authorWords}`);
      return outlineDoc(ctx.bank, seed, novelTitle(ctx.bank, seed, ctx.authorWords), outlineSize(ctx));
    },
    summary: (ctx) => {
      const n = outlineSize(ctx);
      const count = en(ctx) ? (n === 10 ? 'ten' : String(n)) : n === 10 ? '十' : String(n);
      return en(ctx)
        ? `The outline is saved: ${count} chapters following ${ctx.bank.cast.A} from the first discovery to the final reckoning. Tell me which chapter to draft first, or what to change.`
        : `大纲已保存：${count}章，跟随${ctx.bank.cast.A}从最初的发现一路走到最后的清算。告诉我先写哪一章，或者哪里需要调整。`;
    },
  },
  hook_designer: {
    fileType: 'setting',
    title: (ctx) => (en(ctx) ? 'Opening hooks' : '开篇钩子'),
    leadIn: (ctx) => (en(ctx) ? 'Here are three ways to open the story.' : '下面是三种开篇方式。'),
    document: (ctx) => hooksDoc(ctx.bank, seedOf(`hooks|${ctx.bank.lang}|${ctx.authorWords}`)),
    summary: (ctx) =>
      en(ctx)
        ? 'Three opening hooks are saved in "Opening hooks"; I recommend the first, which raises its question on page one.'
        : '三个开篇钩子已保存在《开篇钩子》里；我推荐第一个，它在第一页就抛出了问题。',
  },
  writer: {
    fileType: 'draft',
    title: (ctx) => (en(ctx) ? `Chapter ${ctx.chapter}` : `第${ctx.chapter}章`),
    leadIn: (ctx) => (en(ctx) ? `Here is the draft of Chapter ${ctx.chapter}.` : `下面是第${ctx.chapter}章的草稿。`),
    document: (ctx) =>
      chapterDoc(
        ctx.bank,
        seedOf(`writer|${ctx.bank.lang}|${ctx.chapter}|${ctx.authorWords}`),
        ctx.chapter,
        chapterTitle(ctx.bank, ctx.chapter, ctx.contextTexts),
        ctx.chapterWords,
      ),
    summary: (ctx, words) => {
      const n = ctx.chapter;
      if (en(ctx)) {
        const size = words !== null ? ` (${words} words)` : '';
        return `Chapter ${n} is saved${size}. I can revise it, or continue with Chapter ${n + 1}.`;
      }
      const size = words !== null ? `（${words}字）` : '';
      return `第${n}章已保存${size}。可以继续修改，或者接着写第${n + 1}章。`;
    },
  },
};

/** The persona's answer before ids and timing are attached. */
export interface PersonaReply {
  content: string;
  toolCalls: { name: string; arguments: Record<string, unknown> }[];
}

/** Step 1: open an empty file. */
export function openFileStep(agent: FileAgent, ctx: FileAgentContext): PersonaReply {
  const spec = SPECS[agent];
  return {
    content: '',
    toolCalls: [{ name: 'create_file', arguments: { type: spec.fileType, title: spec.title(ctx) } }],
  };
}

/**
 * The file the author asked to have rewritten in place: the id on a line saying
 * "rewrite it in place" / "原地重写" (a job's retried chapter or a revision round).
 */
export function rewriteTarget(authorWords: string): string | null {
  for (const line of authorWords.split('\n')) {
    if (!/rewrite it in place|原地重写/i.test(line)) continue;
    const m = /\(id=([0-9a-f]{24})\)/.exec(line);
    if (m) return m[1];
  }
  return null;
}

/** Step 1 of a rewrite: the whole new text through edit_file, in one call. */
export function rewriteFileStep(agent: FileAgent, ctx: FileAgentContext, fileId: string): PersonaReply {
  return {
    content: '',
    toolCalls: [
      { name: 'edit_file', arguments: { id: fileId, operation: 'rewrite', text: SPECS[agent].document(ctx) } },
    ],
  };
}

/** Step 2: stream the file body; the text ends right after `</file>`. */
export function streamFileStep(agent: FileAgent, ctx: FileAgentContext): PersonaReply {
  const spec = SPECS[agent];
  return { content: `${spec.leadIn(ctx)}\n<file>\n${spec.document(ctx)}\n</file>`, toolCalls: [] };
}

const FILE_BLOCK = /<file>\n?([\s\S]*?)\n?<\/file>/g;

/** Words of the most recent `<file>` block in view (the saved file), or null. */
function savedWords(contextTexts: string[]): number | null {
  for (const text of contextTexts) {
    const blocks = [...text.matchAll(FILE_BLOCK)];
    if (blocks.length > 0) return countWords(blocks[blocks.length - 1][1]);
  }
  return null;
}

/** Continuation round: one or two sentences on what was saved, no tool calls. */
export function summaryStep(agent: FileAgent, ctx: FileAgentContext): PersonaReply {
  return {
    content: SPECS[agent].summary(ctx, agent === 'writer' ? savedWords(ctx.contextTexts) : null),
    toolCalls: [],
  };
}

/**
 * Why a file could not be created, as the author reads it: never the tool's error code or
 * its message to the model (which names tools and ids).
 */
const CREATE_FAILED: Record<string, [en: (title: string) => string, zh: (title: string) => string]> = {
  file_exists: [
    (t) => `"${t}" already exists, so I did not create it again. Ask me to revise it, or to rewrite it from scratch.`,
    (t) => `《${t}》已经存在，所以没有重复创建。可以让我修改它，或者推倒重写。`,
  ],
  read_only_request: [
    (t) => `You asked for no changes this time, so I did not create "${t}".`,
    (t) => `你这次要求不改动文件，所以没有创建《${t}》。`,
  ],
  clarify_first: [
    (t) => `Tell me what you want in "${t}" first, and I will write it.`,
    (t) => `先告诉我《${t}》要写什么，我再动笔。`,
  ],
};

/** A failed tool: say what failed and stop, rather than retrying into the circuit breaker. */
export function toolFailedStep(ctx: FileAgentContext, errorType: string | undefined, title: string): PersonaReply {
  const words = errorType ? CREATE_FAILED[errorType] : undefined;
  const content = words
    ? words[en(ctx) ? 0 : 1](title)
    : en(ctx)
      ? `I could not create "${title}", so nothing was written this time.`
      : `《${title}》没能创建，这次没有写入任何内容。`;
  return { content, toolCalls: [] };
}

/** The title a fresh run of the agent gives its file (what a failed create was about). */
export const fileTitleOf = (agent: FileAgent, ctx: FileAgentContext): string => SPECS[agent].title(ctx);

/** The run has no `create_file` tool (a read-only turn): answer in chat without touching files. */
export function noFileToolStep(agent: FileAgent, ctx: FileAgentContext): PersonaReply {
  const what = {
    planner: ['an outline', '大纲'],
    hook_designer: ['opening hooks', '开篇钩子'],
    writer: ['a draft', '草稿'],
  }[agent];
  return {
    content: en(ctx)
      ? `I can't create files on this turn, so I won't write ${what[0]} now. Ask me to write it and I will save it as a file.`
      : `这一轮不能创建文件，所以先不写${what[1]}。需要的话请直接让我写，我会保存成文件。`,
    toolCalls: [],
  };
}

/** Non-system texts, latest first. */
export function contextTextsOf(messages: ChatMessage[]): string[] {
  return messages
    .filter((m) => m.role !== 'system' && m.role !== 'developer')
    .map((m) => messageText(m))
    .reverse();
}
