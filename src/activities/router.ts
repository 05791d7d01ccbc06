/**
 * The LLM router activity. Input: the author's message plus, when there is a previous
 * assistant message, its last 600 characters with a status-card summary and the previous
 * routing as one line of JSON (seed 001 `build_router_user_message`). An answer that is
 * not valid JSON of the right shape degrades to a safe default and says why.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { buildRouterSystemPrompt } from '../agents/prompts';
import { lastQuestion } from '../agents/file-stream';
import { tail } from '../shared/text';
import { isOfferQuestion } from '../workflows/proposals';
import { fallbackRouting, normaliseRouterAnswer, type RoutingDecision, routerAnswerSchema } from '../workflows/plans';
import type { ActivityDeps } from './deps';
import { notFound } from './failures';
import { classifyLlmError } from './llm-errors';
import { recordUsage } from './usage';
import { usageId } from './record-ids';

export interface RouteTurnInput {
  turnId: string;
}

/** Pulls the first JSON object out of a reply that may have prose or code fences around it. */
export function extractJsonObject(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('no JSON object in the answer');
  return JSON.parse(text.slice(start, end + 1));
}

export function createRouterActivities(deps: ActivityDeps) {
  const { models, config } = deps;

  async function routerUserMessage(turnId: string): Promise<string> {
    const turn = await models.Turn.findById(turnId).lean();
    if (!turn) throw notFound('Turn', turnId);
    const prevAssistant = await models.Message.findOne({ sessionId: turn.sessionId, role: 'assistant', turnId: { $ne: turnId } })
      .sort({ seq: -1 })
      .lean();
    if (!prevAssistant) return turn.message;
    const prevTurn = await models.Turn.findById(prevAssistant.turnId).lean();
    // Says which kind of question the author is answering (ROUTER_PROMPT: follow-up vs offered next step).
    const question = lastQuestion(prevAssistant.content);
    const asked = question ? `; closing question: ${isOfferQuestion(question) ? 'offers a next step' : 'follow-up'}` : '';
    const card = prevTurn
      ? `[status] ${prevTurn.status}${prevTurn.stopReason ? ` (${prevTurn.stopReason})` : ''}; files touched: ${prevTurn.filesTouched.length}${asked}`
      : '';
    return [
      '[previous assistant ending]',
      tail(prevAssistant.content, 600),
      card,
      '[previous routing]',
      JSON.stringify(prevTurn?.routing ?? null),
      '[user message]',
      turn.message,
    ]
      .filter(Boolean)
      .join('\n');
  }

  return {
    async routeTurn(input: RouteTurnInput): Promise<RoutingDecision> {
      const user = await routerUserMessage(input.turnId);
      let content: string;
      try {
        const res = await deps.llm.chat.completions.create(
          {
            model: config.ROUTER_MODEL ?? config.OPENAI_MODEL,
            messages: [
              { role: 'system', content: buildRouterSystemPrompt() },
              { role: 'user', content: user },
            ],
            temperature: 0,
          },
          { signal: Context.current().cancellationSignal },
        );
        content = res.choices[0]?.message.content ?? '';
        if (res.usage) {
          const turn = await models.Turn.findById(input.turnId).lean();
          const usage = { promptTokens: res.usage.prompt_tokens, completionTokens: res.usage.completion_tokens, totalTokens: res.usage.total_tokens };
          if (turn) await recordUsage(models, usageId(input.turnId, 'router'), input.turnId, turn, 'router', 0, { ...usage, source: 'provider', model: res.model || config.OPENAI_MODEL });
        }
      } catch (err) {
        const classified = classifyLlmError(err);
        // Transient failures (with the provider's back-off, if it gave one) are retried by Temporal;
        // after the last attempt the workflow falls back. Only a rejected request falls back at once.
        if (!(classified instanceof ApplicationFailure && classified.nonRetryable)) throw classified;
        return fallbackRouting(`router call rejected: ${(err as Error).message.slice(0, 200)}`);
      }
      let json: unknown;
      try {
        json = extractJsonObject(content);
      } catch (err) {
        return fallbackRouting(`router answer is not JSON: ${(err as Error).message}`);
      }
      const parsed = routerAnswerSchema.safeParse(json);
      if (!parsed.success)
        return fallbackRouting(`router answer invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ').slice(0, 300)}`);
      const notes = Array.from(parsed.data.scope).length > 80 ? ['scope cut to 80 characters'] : [];
      return normaliseRouterAnswer(parsed.data, 'llm', notes);
    },
  };
}
