/**
 * The default persona: what the offline model answers when no test scripted it. It plays
 * each Scriptorium role well enough for a demo — routes by keywords, plans, designs
 * hooks, drafts chapters through the file streaming protocol, reviews — and answers the
 * same request with the same text every time.
 */
import { REVIEW_EVIDENCE_MARKER } from '../../core/markers';
import { truncate } from '../../core/text';
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
import { routeMessage } from './router';
import { isSuggestionsRequest, suggestionsReply } from './suggestions';

export type { PersonaReply };
export { routeMessage, type RoutingDecision, type WorkflowPlan } from './router';

export const DEFAULT_CHAPTER_WORDS = 1000;

function fileAgentReply(agent: FileAgent, body: ChatCompletionRequest, ctx: FileAgentContext): PersonaReply {
  const outcomes = trailingToolOutcomes(body.messages);
  if (outcomes.length > 0) {
    // A tool message whose call we cannot find is most likely our own create_file.
    const created = outcomes.find((o) => o.name === 'create_file' || o.name === null);
    if (created?.ok) return streamFileStep(agent, ctx);
    const failed = outcomes.find((o) => !o.ok);
    if (failed) return toolFailedStep(ctx, failed.errorType, failed.message);
    return { content: ctx.bank.lang === 'en' ? 'Done.' : '完成。', toolCalls: [] };
  }
  if (isContinuationRound(body.messages)) return summaryStep(agent, ctx);
  const tools = offeredTools(body);
  const target = agent === 'writer' ? rewriteTarget(ctx.authorWords) : null;
  if (target && (!tools || tools.has('edit_file'))) return rewriteFileStep(agent, ctx, target);
  if (tools && !tools.has('create_file')) return noFileToolStep(agent, ctx);
  return openFileStep(agent, ctx);
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
export function personaReply(agent: AgentName | null, body: ChatCompletionRequest, options: PersonaOptions = {}): PersonaReply {
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
    chapterWords: Math.max(1, Math.min(options.chapterWords ?? DEFAULT_CHAPTER_WORDS, lengthTarget(authorWords) ?? Infinity)),
    contextTexts: contextTextsOf(body.messages),
  };
  return fileAgentReply(agent, body, ctx);
}
