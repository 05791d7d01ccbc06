/**
 * Provider profiles: the streaming dialects of the providers authors plug in, so the engine
 * is tested against each one's documented shapes and not only against our own. A request
 * picks one with the `x-offline-profile` header or a model name `offline:<profile>`; with
 * neither it gets `default`, the offline model's original shape (unchanged bytes).
 *
 * What each profile follows:
 * - `openai` — OpenAI API reference, "The chat completion chunk object" and "Function calling
 *   / streaming": a first chunk with `role` (and `refusal: null`); each tool call opens with
 *   `{index, id, type, function: {name, arguments: ""}}` and its arguments follow in pieces
 *   under the same `index`; several calls in one answer have indices 0, 1, …; with
 *   `stream_options.include_usage` every chunk carries `usage: null` and one last chunk has
 *   empty `choices` and the usage, with `prompt_tokens_details.cached_tokens` and
 *   `completion_tokens_details.reasoning_tokens`. Reasoning is never streamed (o-series
 *   models keep it hidden; only its token count is reported).
 * - `deepseek` — DeepSeek API docs, "Reasoning Model (deepseek-reasoner)" and "Context
 *   Caching": `delta.reasoning_content` pieces (with `content: null`) before the answer,
 *   usage with `prompt_cache_hit_tokens` / `prompt_cache_miss_tokens` (no OpenAI
 *   `prompt_tokens_details`) and `completion_tokens_details.reasoning_tokens`.
 * - `vllm` — vLLM docs, "Tool Calling" and "Reasoning Outputs" (Qwen3 with the hermes tool
 *   parser): thinking as `delta.reasoning` (the field was `reasoning_content` before v0.11),
 *   tool calls opened with an id `chatcmpl-tool-…` and streamed like OpenAI's; the answer
 *   ends with `finish_reason: "tool_calls"` — or `"stop"` (named / required tool choice, and
 *   several parser versions), which a script entry selects with `finishReason`.
 * - `ollama` — Ollama docs, "OpenAI compatibility" and "Streaming responses with tool
 *   calling": `system_fingerprint: "fp_ollama"`, every delta carries `role: "assistant"`,
 *   each tool call arrives whole in one chunk (id, name and all its arguments), thinking as
 *   `delta.reasoning`, and usage only in the last chunk (empty `choices`).
 */
import { tokenCount } from './tokens';
import type { UsageCounts } from './types';

export const PROFILES = ['default', 'openai', 'deepseek', 'vllm', 'ollama'] as const;
export type ProfileName = (typeof PROFILES)[number];

/** The header a client may send to pick a profile (a model name `offline:<profile>` does too). */
export const PROFILE_HEADER = 'x-offline-profile';

/** How one provider shapes a streamed answer. */
export interface Dialect {
  name: ProfileName;
  systemFingerprint: string | null;
  /** A first chunk with just the role (all but Ollama). */
  roleChunk: boolean;
  /** Every delta repeats `role: "assistant"` (Ollama). */
  roleOnEveryDelta: boolean;
  /** Where thinking goes: a delta field, or nowhere (hidden, counted only). */
  reasoningField: 'reasoning_content' | 'reasoning' | null;
  /** `content: null` beside each reasoning piece (DeepSeek). */
  nullContentWithReasoning: boolean;
  /** A tool call's id, from the deterministic one the reply carries. */
  toolCallId: (id: string) => string;
  /** Each tool call in one chunk, whole (Ollama), instead of a header then argument pieces. */
  wholeToolCalls: boolean;
  /** `usage: null` on every chunk of an include_usage stream (OpenAI). */
  usageNullOnChunks: boolean;
  /** Usage as the provider spells it. */
  wireUsage: (u: UsageCounts) => Record<string, unknown>;
}

const total = (u: UsageCounts) => ({
  prompt_tokens: u.prompt_tokens,
  completion_tokens: u.completion_tokens,
  total_tokens: u.prompt_tokens + u.completion_tokens,
});

/** The original shape: OpenAI's fields, as the offline model always sent them. */
function defaultUsage(u: UsageCounts): Record<string, unknown> {
  return {
    ...total(u),
    ...(u.cached_tokens !== undefined ? { prompt_tokens_details: { cached_tokens: u.cached_tokens } } : {}),
  };
}

const DIALECTS: Record<ProfileName, Dialect> = {
  default: {
    name: 'default',
    systemFingerprint: null,
    roleChunk: true,
    roleOnEveryDelta: false,
    reasoningField: 'reasoning_content',
    nullContentWithReasoning: false,
    toolCallId: (id) => id,
    wholeToolCalls: false,
    usageNullOnChunks: false,
    wireUsage: defaultUsage,
  },
  openai: {
    name: 'openai',
    systemFingerprint: 'fp_offline_openai',
    roleChunk: true,
    roleOnEveryDelta: false,
    reasoningField: null,
    nullContentWithReasoning: false,
    toolCallId: (id) => id,
    wholeToolCalls: false,
    usageNullOnChunks: true,
    wireUsage: (u) => ({
      ...total(u),
      prompt_tokens_details: { cached_tokens: u.cached_tokens ?? 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: u.reasoning_tokens ?? 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    }),
  },
  deepseek: {
    name: 'deepseek',
    systemFingerprint: 'fp_offline_deepseek',
    roleChunk: true,
    roleOnEveryDelta: false,
    reasoningField: 'reasoning_content',
    nullContentWithReasoning: true,
    toolCallId: (id) => id,
    wholeToolCalls: false,
    usageNullOnChunks: false,
    wireUsage: (u) => ({
      ...total(u),
      prompt_cache_hit_tokens: u.cached_tokens ?? 0,
      prompt_cache_miss_tokens: u.prompt_tokens - (u.cached_tokens ?? 0),
      completion_tokens_details: { reasoning_tokens: u.reasoning_tokens ?? 0 },
    }),
  },
  vllm: {
    name: 'vllm',
    systemFingerprint: null,
    roleChunk: true,
    roleOnEveryDelta: false,
    reasoningField: 'reasoning',
    nullContentWithReasoning: false,
    toolCallId: (id) => `chatcmpl-tool-${id.replace(/^call_/, '')}`,
    wholeToolCalls: false,
    usageNullOnChunks: false,
    // vLLM leaves prompt_tokens_details null unless --enable-prompt-tokens-details.
    wireUsage: (u) => ({ ...total(u), prompt_tokens_details: null }),
  },
  ollama: {
    name: 'ollama',
    systemFingerprint: 'fp_ollama',
    roleChunk: false,
    roleOnEveryDelta: true,
    reasoningField: 'reasoning',
    nullContentWithReasoning: false,
    toolCallId: (id) => id,
    wholeToolCalls: true,
    usageNullOnChunks: false,
    wireUsage: total,
  },
};

export class UnknownProfile extends Error {
  constructor(name: string) {
    super(`unknown offline model profile "${name}"; known: ${PROFILES.join(', ')}`);
    this.name = new.target.name;
  }
}

/** The profile a request asked for: the header first, then an `offline:<profile>` model name. */
export function dialectFor(header: string | string[] | undefined, model: string | undefined): Dialect {
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const fromModel = model?.startsWith('offline:') ? model.slice('offline:'.length) : undefined;
  const name = (fromHeader ?? fromModel ?? 'default').trim().toLowerCase();
  if (!(PROFILES as readonly string[]).includes(name)) throw new UnknownProfile(name);
  return DIALECTS[name as ProfileName];
}

export const defaultDialect = DIALECTS.default;

/** Reasoning tokens of an answer's thinking (reported by the profiles that count it). */
export const reasoningTokens = (reasoning: string): number => tokenCount(reasoning);
