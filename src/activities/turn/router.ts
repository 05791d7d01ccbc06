/**
 * The LLM router activity. Input: the author's message with the previous reply's ending,
 * status card and routing (router-input.ts). An answer that is not valid JSON of the right
 * shape degrades to a safe default and says why.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { buildRouterSystemPrompt } from '../../agents/prompts';
import { fallbackRouting, normaliseRouterAnswer, type RoutingDecision, routerAnswerSchema } from '../../core/plans';
import type { ActivityDeps } from '../deps';
import { notFound } from '../failures';
import { classifyLlmError } from '../step/llm-errors';
import { providerUsage, recordUsage } from '../usage';
import { usageId } from '../../core/turn/record-ids';
import { routerInput } from './router-input';

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
  const { models, config, caches } = deps;

  return {
    async routeTurn(input: RouteTurnInput): Promise<RoutingDecision> {
      const read = await routerInput(models, caches.routerInputs, input.turnId, () =>
        models.Turn.findById(input.turnId).lean(),
      );
      if (!read) throw notFound('Turn', input.turnId);
      const { turn, message: user } = read;
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
            providerUsage(config.meta.prices, res.usage, res.model || config.OPENAI_MODEL),
          );
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
        return fallbackRouting(
          `router answer invalid: ${parsed.error.issues
            .map((i) => `${i.path.join('.')}: ${i.message}`)
            .join('; ')
            .slice(0, 300)}`,
        );
      const notes = Array.from(parsed.data.scope).length > 80 ? ['scope cut to 80 characters'] : [];
      return normaliseRouterAnswer(parsed.data, 'llm', notes);
    },
  };
}
