/**
 * The default persona: what the offline model answers when no test scripted it. It plays
 * each Scriptorium role well enough for a demo — routes by keywords, plans, designs
 * hooks, drafts chapters through the file streaming protocol, reviews — and answers the
 * same request with the same text every time.
 */
import { REVIEW_EVIDENCE_MARKER } from '../../agents/markers';
import { truncate } from '../../shared/text';
import {
  authorText,
  isContinuationRound,
  lastUserMessage,
  offeredTools,
  replyLanguage,
  requestedChapter,
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
  streamFileStep,
  summaryStep,
  toolFailedStep,
  type FileAgent,
  type FileAgentContext,
  type PersonaReply,
} from './file-agents';
import { routeMessage } from './router';

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

/** The persona's answer to a request from `agent` (null: not one of ours). */
export function personaReply(agent: AgentName | null, body: ChatCompletionRequest, options: PersonaOptions = {}): PersonaReply {
  if (agent === 'router') {
    return { content: JSON.stringify(routeMessage(authorText(body.messages))), toolCalls: [] };
  }
  const bank = replyLanguage(body.messages) === 'zh' ? ZH_BANK : EN_BANK;
  if (agent === 'quality_reviewer') return reviewerReply(body, bank);
  if (agent === null) return unknownAgentReply(body, bank);
  const ctx: FileAgentContext = {
    bank,
    authorWords: authorText(body.messages),
    chapter: requestedChapter(body.messages),
    chapterWords: Math.max(1, options.chapterWords ?? DEFAULT_CHAPTER_WORDS),
    contextTexts: contextTextsOf(body.messages),
  };
  return fileAgentReply(agent, body, ctx);
}
