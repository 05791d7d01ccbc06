/**
 * The offline model: an OpenAI-compatible Chat Completions server that stands in for the
 * LLM — the scripted test double of every test, and the default model of local demos
 * when no OPENAI_API_KEY is set.
 *
 * ```ts
 * const model = await startOfflineModel({ ttftMs: 0, tokensPerSecond: 1e6 });
 * const client = new OpenAI({ baseURL: model.baseURL, apiKey: 'offline', maxRetries: 0 });
 * model.script([{ match: { agent: 'writer' }, reply: { content: 'Hello' } }]);
 * ```
 */
export { startOfflineModel } from './server';
export { personaReply, routeMessage, DEFAULT_CHAPTER_WORDS, type RoutingDecision, type WorkflowPlan } from './persona';
export { splitPieces } from './tokens';
export { OFFLINE_MODEL_ID } from './types';
// Every type of the model's contract (scripts, requests, options, timing), as one list lives there.
export type * from './types';
