/**
 * The default persona: what the offline model answers when no test scripted it. It plays
 * each Scriptorium role well enough for a demo — routes by keywords, plans, designs
 * hooks, drafts chapters through the file streaming protocol, reviews — and answers the
 * same request with the same text every time.
 */
import { REVIEW_EVIDENCE_MARKER } from '../../core/model/markers';
import { countWords, truncate } from '../../core/text';
import {
  authorText,
  chapterNumber,
  isContinuationRound,
  lastUserMessage,
  offeredTools,
  replyLanguage,
  trailingToolOutcomes,
} from '../conversation';
import { messageText, seedOf } from '../tokens';
import type { AgentName, ChatCompletionRequest, PersonaOptions } from '../types';
import type { Bank } from './bank';
import { EN_BANK } from './bank-en';
import { ZH_BANK } from './bank-zh';
import { readEvidence, reviewDoc } from './compose';
import {
  contextTextsOf,
  fileTitleOf,
  noFileToolStep,
  openFileStep,
  rewriteFileStep,
  rewriteTarget,
  streamFileStep,
  summaryStep,
  toolFailedStep,
  type FileAgent,
  type FileAgentContext,
  type PersonaReply,
} from './file-agents';
import {
  afterFileOrder,
  chapterFiles,
  characterSheet,
  fileOrderOf,
  type FileOrder,
  listedFiles,
  type ListedFile,
  nothingToTouch,
  rewrittenChapter,
} from './file-orders';
import { routeMessage } from './router';
import { isSuggestionsRequest, suggestionsReply } from './suggestions';

export type { PersonaReply };
export { routeMessage, type RoutingDecision, type WorkflowPlan } from './router';

export const DEFAULT_CHAPTER_WORDS = 1000;

function fileAgentReply(agent: FileAgent, body: ChatCompletionRequest, ctx: FileAgentContext): PersonaReply {
  const outcomes = trailingToolOutcomes(body.messages);
  const files = listedFiles(engineTexts(body));
  const answered = outcomes.length ? fileOrderAnswered(ctx, lastToolCalls(body.messages), outcomes, files) : null;
  if (answered) return answered;
  if (outcomes.length > 0) {
    // A tool message whose call we cannot find is most likely our own create_file.
    const created = outcomes.find((o) => o.name === 'create_file' || o.name === null);
    if (created?.ok) return streamFileStep(agent, ctx);
    const failed = outcomes.find((o) => !o.ok);
    if (failed) return toolFailedStep(ctx, failed.errorType, fileTitleOf(agent, ctx));
    return { content: ctx.bank.lang === 'en' ? 'Done.' : '完成。', toolCalls: [] };
  }
  if (isContinuationRound(body.messages)) return summaryStep(agent, ctx);
  const tools = offeredTools(body);
  const target = agent === 'writer' ? rewriteTarget(ctx.authorWords) : null;
  if (target && (!tools || tools.has('edit_file'))) return rewriteFileStep(agent, ctx, target);
  const order = agent === 'writer' && !target ? fileOrderOf(ctx.authorWords) : null;
  if (order && (!tools || tools.has('create_file'))) return fileOrderStep(order, ctx, files);
  if (tools && !tools.has('create_file')) return noFileToolStep(agent, ctx);
  return openFileStep(agent, ctx);
}

/** Texts the engine wrote around the author's words (system messages): where the project's file list is. */
const engineTexts = (body: ChatCompletionRequest): string[] =>
  body.messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => messageText(m));

/** The calls of the agent's latest step, with their arguments. */
function lastToolCalls(messages: ChatCompletionRequest['messages']): { name: string; args: Record<string, unknown> }[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const calls = messages[i]!.tool_calls;
    if (messages[i]!.role !== 'assistant' || !calls?.length) continue;
    return calls.map((c) => {
      try {
        return { name: c.function.name, args: JSON.parse(c.function.arguments || '{}') as Record<string, unknown> };
      } catch {
        return { name: c.function.name, args: {} };
      }
    });
  }
  return [];
}

/** Step 1 of an order about whole files: the calls that carry it out, or why there is nothing to do. */
function fileOrderStep(order: FileOrder, ctx: FileAgentContext, files: ListedFile[]): PersonaReply {
  if (order.kind === 'characters') {
    const have = new Set(files.filter((f) => f.type === 'character').map((f) => f.title));
    const roles = (['A', 'B', 'C'] as const).filter((r) => !have.has(ctx.bank.cast[r]));
    if (!roles.length)
      return {
        content: afterFileOrder(
          ctx.bank,
          'characters',
          (['A', 'B', 'C'] as const).map((r) => ({ title: ctx.bank.cast[r], ok: false })),
        ),
        toolCalls: [],
      };
    return {
      content: '',
      toolCalls: roles.map((r) => ({
        name: 'create_file',
        arguments: {
          type: 'character',
          title: ctx.bank.cast[r],
          content: characterSheet(ctx.bank, r),
          importance: r === 'A' ? 'high' : 'medium',
        },
      })),
    };
  }
  const targets = chapterFiles(files, order.chapters);
  if (!targets.length) return { content: nothingToTouch(ctx.bank, order.chapters), toolCalls: [] };
  return {
    content: '',
    toolCalls: targets.map((f) =>
      order.kind === 'delete'
        ? { name: 'delete_file', arguments: { id: f.id } }
        : {
            name: 'edit_file',
            arguments: {
              id: f.id,
              operation: 'rewrite',
              text: rewrittenChapter(ctx.bank, f, ctx.contextTexts, ctx.chapterWords),
            },
          },
    ),
  };
}

/** After the tools answered an order about whole files: what became of each file, in words (null: the step was not one). */
function fileOrderAnswered(
  ctx: FileAgentContext,
  calls: { name: string; args: Record<string, unknown> }[],
  outcomes: ReturnType<typeof trailingToolOutcomes>,
  files: ListedFile[],
): PersonaReply | null {
  const kind = calls.every((c) => c.name === 'delete_file')
    ? 'delete'
    : calls.every((c) => c.name === 'edit_file' && c.args.operation === 'rewrite')
      ? 'rewrite'
      : calls.every(
            (c) => c.name === 'create_file' && c.args.type === 'character' && typeof c.args.content === 'string',
          )
        ? 'characters'
        : null;
  if (!kind || !calls.length || calls.length !== outcomes.length) return null;
  const titleOf = (c: { args: Record<string, unknown> }) =>
    typeof c.args.title === 'string'
      ? c.args.title
      : (files.find((f) => f.id === c.args.id)?.title ?? (ctx.bank.lang === 'en' ? 'the file' : '那个文件'));
  const results = calls.map((c, i) => ({
    title: titleOf(c),
    ok: outcomes[i]!.ok,
    errorType: outcomes[i]!.errorType,
    ...(kind === 'rewrite' && typeof c.args.text === 'string' ? { words: countWords(c.args.text) } : {}),
  }));
  return { content: afterFileOrder(ctx.bank, kind, results), toolCalls: [] };
}

function reviewerReply(body: ChatCompletionRequest, bank: Bank): PersonaReply {
  const last = lastUserMessage(body.messages);
  const text = last ? messageText(last) : '';
  const at = text.indexOf(REVIEW_EVIDENCE_MARKER);
  const evidence = readEvidence(at >= 0 ? text.slice(at) : text);
  return { content: reviewDoc(bank, seedOf(`review|${bank.lang}|${text}`), evidence), toolCalls: [] };
}

function unknownAgentReply(body: ChatCompletionRequest, bank: Bank): PersonaReply {
  const said = truncate(authorText(body.messages).replace(/\s+/g, ' '), 120);
  return {
    content:
      bank.lang === 'en'
        ? `This is the Scriptorium offline model. The request has no Scriptorium agent header, so I can only acknowledge it: "${said}"`
        : `这里是 Scriptorium 离线模型。请求里没有 Scriptorium 角色标记，只能确认收到：“${said}”`,
    toolCalls: [],
  };
}

/**
 * The engine puts a list of recently touched files ahead of the author's words in the
 * same user message; it names earlier chapters ("Chapter 6 (id=…)") and must not be read
 * as the author asking for them.
 */
const WORKING_SET = /<previous_turn_working_set>[\s\S]*?<\/previous_turn_working_set>\s*/g;
const withoutWorkingSet = (text: string): string => text.replace(WORKING_SET, '');

/** The chapter the author asks for: first in their own words, then anywhere in their message; default 1. */
function chapterAsked(body: ChatCompletionRequest, authorWords: string): number {
  const last = lastUserMessage(body.messages);
  return chapterNumber(authorWords) ?? (last ? chapterNumber(withoutWorkingSet(messageText(last))) : null) ?? 1;
}

/**
 * A length target the request states ("Target length: about 300 words", "目标篇幅：约300字").
 * The persona writes to it when it is shorter than its configured chapter length, the
 * way a writer keeps to a brief; longer targets stay capped, so a reviewer can still
 * find a draft short of what was asked.
 */
function lengthTarget(text: string): number | null {
  const m = /target length[^\d\n]{0,12}(\d[\d,]*)\s*words?/i.exec(text) ?? /目标篇幅[^\d\n]{0,6}(\d+)\s*字/.exec(text);
  const n = m ? Number(m[1].replace(/,/g, '')) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** The persona's answer to a request from `agent` (null: not one of ours). */
export function personaReply(
  agent: AgentName | null,
  body: ChatCompletionRequest,
  options: PersonaOptions = {},
): PersonaReply {
  if (agent === 'router') {
    return { content: JSON.stringify(routeMessage(authorText(body.messages))), toolCalls: [] };
  }
  const bank = replyLanguage(body.messages) === 'zh' ? ZH_BANK : EN_BANK;
  if (agent === 'quality_reviewer') return reviewerReply(body, bank);
  if (agent === null && isSuggestionsRequest(body)) return suggestionsReply(body);
  if (agent === null) return unknownAgentReply(body, bank);
  const authorWords = withoutWorkingSet(authorText(body.messages));
  const ctx: FileAgentContext = {
    bank,
    authorWords,
    chapter: chapterAsked(body, authorWords),
    chapterWords: Math.max(
      1,
      Math.min(options.chapterWords ?? DEFAULT_CHAPTER_WORDS, lengthTarget(authorWords) ?? Infinity),
    ),
    contextTexts: contextTextsOf(body.messages),
  };
  return fileAgentReply(agent, body, ctx);
}
