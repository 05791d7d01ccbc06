/**
 * Next-step suggestions: when a turn ends without failing, one
 * small model call proposes 2–4 short next steps in the author's language and keeps them on
 * the turn (GET /turns/:id). finalizeTurn publishes them as the `suggestions` event right
 * before `done`, after any held text and stop cards, so they are the last thing shown.
 *
 * Optional by nature: a model error, or an answer with fewer than two usable items, means no
 * suggestions — never a failed turn. Idempotent: a retry keeps what was saved.
 */
import { Context } from '@temporalio/activity';
import { buildSuggestionsPrompt, SUGGESTION_SECTIONS } from '../../agents/prompts/suggestions';
import { detectLanguage, tail, truncate } from '../../core/text';
import type { ToolOutcome } from '../../core/turn/turn-types';
import type { ActivityDeps } from '../deps';
import { providerUsage, recordUsage } from '../usage';
import { usageId } from '../../core/turn/record-ids';

export interface SuggestInput {
  turnId: string;
  status: string;
  /** The session's reply language (absent in older histories: the message's). */
  language?: 'zh' | 'en';
}

const MAX_ITEM_CHARS = 80;

/** The model's answer → 2–4 clean items in the author's language, or [] when it is not usable. */
export function cleanSuggestions(answer: string, language: 'zh' | 'en'): string[] {
  let raw: unknown[] = [];
  const start = answer.indexOf('[');
  const end = answer.lastIndexOf(']');
  if (start >= 0 && end > start) {
    try {
      const parsed: unknown = JSON.parse(answer.slice(start, end + 1));
      if (Array.isArray(parsed)) raw = parsed;
    } catch {
      // Not JSON after all: read it line by line below.
    }
  }
  if (!raw.length) raw = answer.split('\n');
  const items: string[] = [];
  for (const r of raw) {
    if (typeof r !== 'string') continue;
    const text = r
      .replace(/^\s*(?:[-*•]|\d+[.)、]|[①②③④])\s*/, '')
      .replace(/^["'“”「」]+|["'“”「」,，]+$/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    // An item in another language is not for this author (the prompt asked for theirs).
    if (!text || text.startsWith('```') || detectLanguage(text) !== language) continue;
    const item = truncate(text, MAX_ITEM_CHARS);
    if (!items.includes(item)) items.push(item);
  }
  return items.length >= 2 ? items.slice(0, 4) : [];
}

export function createSuggestionActivities(deps: ActivityDeps) {
  const { models, config } = deps;

  async function userMessage(turnId: string, message: string, status: string): Promise<string> {
    const [steps, executions] = await Promise.all([
      models.AgentStep.find({ turnId }).sort({ step: 1 }).select({ text: 1 }).lean(),
      models.ToolExecution.find({ turnId }).select({ result: 1 }).lean(),
    ]);
    const files = executions
      .map((e) => (e.result as { outcome?: ToolOutcome }).outcome)
      .filter((o): o is ToolOutcome => !!o?.ok && (o.op === 'created' || o.op === 'edited') && !!o.title)
      .map((o) => `- ${o.title} (${o.fileType})`);
    return [
      SUGGESTION_SECTIONS.author,
      truncate(message, 2000),
      SUGGESTION_SECTIONS.reply,
      tail(
        steps
          .map((s) => s.text)
          .join('')
          .trim(),
        800,
      ) || '(no reply text)',
      SUGGESTION_SECTIONS.files,
      [...new Set(files)].join('\n') || '(none)',
      SUGGESTION_SECTIONS.status,
      status,
    ].join('\n');
  }

  return {
    async suggestNextSteps(input: SuggestInput): Promise<{ count: number }> {
      const turn = await models.Turn.findById(input.turnId).lean();
      if (!turn) throw new Error(`turn ${input.turnId} not found`);
      const language = input.language ?? detectLanguage(turn.message);
      if (turn.suggestions?.length) return { count: turn.suggestions.length };
      const model = config.SUGGESTIONS_MODEL ?? config.OPENAI_MODEL;
      let items: string[];
      try {
        const res = await deps.llm.chat.completions.create(
          {
            model,
            messages: [
              { role: 'system', content: buildSuggestionsPrompt(language) },
              { role: 'user', content: await userMessage(input.turnId, turn.message, input.status) },
            ],
            temperature: 0.3,
          },
          { signal: Context.current().cancellationSignal },
        );
        items = cleanSuggestions(res.choices[0]?.message.content ?? '', language);
        if (res.usage)
          await recordUsage(
            models,
            usageId(input.turnId, 'suggestions'),
            input.turnId,
            turn,
            'suggestions',
            0,
            providerUsage(deps.config.meta.prices, res.usage, res.model || model),
          );
      } catch (err) {
        deps.logger.warn(
          { err: (err as Error).message, turnId: input.turnId },
          'no next-step suggestions: the model call failed',
        );
        return { count: 0 };
      }
      if (items.length) await models.Turn.updateOne({ _id: input.turnId }, { $set: { suggestions: items } });
      return { count: items.length };
    },
  };
}
