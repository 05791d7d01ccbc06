/**
 * The LLM router activity. Input: the author's message with the previous reply's ending,
 * status card and routing (router-input.ts). Every way the call can go wrong degrades to the
 * fallback route (the writer alone, quick plan) with the reason in its notes: an answer that is
 * not JSON of the right shape and a request the provider rejects (4xx) here, at once; a router
 * still failing after its retries (5xx, time-outs, no connection) in the workflow
 * (turn-routing.ts), which sees this activity give up.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { buildRouterSystemPrompt } from '../../agents/prompts';
import { fallbackRouting, normaliseRouterAnswer, type RoutingDecision, routerAnswerSchema } from '../../core/plans';
import { routerModelOf } from '../../config';
import type { ActivityDeps } from '../deps';
import { notFound } from '../failures';
import { classifyLlmError } from '../step/llm-errors';
import { providerUsage, recordUsage } from '../usage';
import { usageId } from '../../core/turn/record-ids';
import { routerInput } from './router-input';

/**
 * The router's answer is one JSON object of six short fields (its scope cut to 80 characters),
 * well under 150 tokens: the cap bounds the cost and latency of a model that rambles, and an
 * answer cut at it is not JSON and falls back like any other.
 */
export const ROUTER_MAX_TOKENS = 300;

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
  return {
    /** The router's call on its own, when the preparation did not make it (turn-prepare.ts). */
    async routeTurn(input: RouteTurnInput): Promise<RoutingDecision> {
      return askRouter(deps, input);
    },
  };
}

/**
 * One call of the router model for the turn: its decision, the fallback route when the
 * request is rejected or the answer unusable, or a thrown error to retry (5xx, time-outs).
 */
export async function askRouter(deps: ActivityDeps, input: RouteTurnInput): Promise<RoutingDecision> {
  const { models, config, caches } = deps;
  const read = await routerInput(models, caches.routerInputs, input.turnId, () =>
    models.Turn.findById(input.turnId).lean(),
  );
  if (!read) throw notFound('Turn', input.turnId);
  const { turn, message: user } = read;
  const model = routerModelOf(config);
  // Its own limit, not the client's (an agent step's): a hung router retries and falls back in
  // seconds. Kept apart from cancellation so the reason on record says it timed out.
  const timeoutMs = config.ROUTER_TIMEOUT_SECONDS * 1000;
  const timedOut = AbortSignal.timeout(timeoutMs);
  let content: string;
  try {
    const res = await deps.llm.chat.completions.create(
      {
        model,
        messages: [
          { role: 'system', content: buildRouterSystemPrompt() },
          { role: 'user', content: user },
        ],
        // The same message routes the same way on every attempt and every replica.
        temperature: 0,
        max_tokens: ROUTER_MAX_TOKENS,
      },
      { signal: AbortSignal.any([Context.current().cancellationSignal, timedOut]) },
    );
    content = res.choices[0]?.message.content ?? '';
    // Crash tests: the model answered and nothing of it is on record yet.
    deps.faults?.hit('router.answered', { turnId: input.turnId });
    if (res.usage) {
      await recordUsage(
        models,
        usageId(input.turnId, 'router'),
        input.turnId,
        turn,
        'router',
        0,
        providerUsage(config.meta.prices, res.usage, res.model || model),
      );
    }
  } catch (err) {
    // Retried like any transient fault; after the last attempt the workflow falls back with this reason.
    if (timedOut.aborted && !Context.current().cancellationSignal.aborted)
      throw new Error(`router timed out after ${timeoutMs / 1000} s`);
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
    return fallbackRouting(
      `router answer invalid: ${parsed.error.issues
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')
        .slice(0, 300)}`,
    );
  const notes = Array.from(parsed.data.scope).length > 80 ? ['scope cut to 80 characters'] : [];
  return normaliseRouterAnswer(parsed.data, 'llm', notes);
}
