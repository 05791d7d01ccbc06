/**
 * Public types of the offline model and the zod schemas that guard its two inputs: the
 * Chat Completions request body (from any client) and the script entries (from tests).
 */
import type { Server } from 'node:http';
import { z } from 'zod';
import type { AgentName } from '../core/events';

export type { AgentName };

/** Model id answered by `GET /v1/models` and used when a request names none. */
export const OFFLINE_MODEL_ID = 'scriptorium-offline';

const contentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

const toolCallSchema = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string().optional() }),
});

/** One chat message as clients send it; unknown fields are kept (recorded for tests). */
export const chatMessageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(contentPartSchema), z.null()]).optional(),
  name: z.string().optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  tool_call_id: z.string().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

const toolSchema = z.looseObject({
  type: z.string(),
  function: z.looseObject({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.unknown().optional(),
  }),
});

/** The subset of the Chat Completions request the offline model reads; the rest passes through. */
export const chatCompletionRequestSchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(chatMessageSchema).min(1),
  tools: z.array(toolSchema).optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

/** Token counts in the Chat Completions `usage` shape (without the total, which is derived). */
export interface UsageCounts {
  prompt_tokens: number;
  completion_tokens: number;
  /** Prompt tokens served from the (simulated) prefix cache; each profile spells it its provider's way (profiles.ts). */
  cached_tokens?: number;
  /** Completion tokens spent thinking; reported by the profiles whose providers report it. */
  reasoning_tokens?: number;
}

/** Finish reasons a script entry may force; `length` and `content_filter` end an answer early. */
export const FINISH_REASONS = ['stop', 'length', 'tool_calls', 'content_filter'] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];

/** A canned tool call; object arguments are serialised with `JSON.stringify`. */
export interface ScriptToolCall {
  name: string;
  arguments: Record<string, unknown> | string;
  /** Defaults to a deterministic `call_<hash8>_<index>`. */
  id?: string;
}

/** One scripted answer. Each request consumes the first remaining entry whose `match` fits. */
export interface ScriptEntry {
  match?: {
    agent?: AgentName;
    /** Substring of any message's text (system, user, assistant or tool). */
    contains?: string;
  };
  reply?: {
    content?: string;
    /** Streamed first, as `delta.reasoning_content` (DeepSeek-style thinking). */
    reasoning?: string;
    toolCalls?: ScriptToolCall[];
    /** Overrides the counted usage; `null` sends no usage even when the client asked for it. */
    usage?: UsageCounts | null;
    /**
     * The finish reason sent, instead of the natural one (`tool_calls` with calls, else `stop`).
     * The content (or a call's arguments, as a string) is what the model got out before it:
     * `length` with an unclosed `<file>` body or cut JSON is the max_tokens cut every provider
     * makes; `content_filter` a provider's moderation stopping the answer; `stop` with tool
     * calls is vLLM's named / required tool choice.
     */
    finishReason?: FinishReason;
  };
  /**
   * Answer with this HTTP error instead (OpenAI error JSON shape). `headers` go on the
   * response, e.g. `{ 'retry-after': '2' }` with a 429 to script a provider's back-off.
   */
  error?: { status: number; message: string; type?: string; headers?: Record<string, string> };
  /**
   * Stream this many characters of the content (after all reasoning) and then stall
   * without ending, until the client disconnects — for crash and cancel tests. A
   * non-streaming request with a stall never gets an answer.
   */
  stallAfterChars?: number;
  /**
   * Stream this many characters of the content and then drop the connection (no finish
   * chunk, no `[DONE]`): a provider or proxy cutting the stream, as a load balancer does.
   */
  cutAfterChars?: number;
  ttftMs?: number;
  tokensPerSecond?: number;
}

const agentNameSchema = z.enum(['router', 'planner', 'hook_designer', 'writer', 'quality_reviewer']);
const usageSchema = z.strictObject({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  cached_tokens: z.number().int().nonnegative().optional(),
  reasoning_tokens: z.number().int().nonnegative().optional(),
});

/** Rejects typos in a test's script up front instead of letting them surface as odd replies. */
export const scriptEntrySchema = z.strictObject({
  match: z.strictObject({ agent: agentNameSchema.optional(), contains: z.string().optional() }).optional(),
  reply: z
    .strictObject({
      content: z.string().optional(),
      reasoning: z.string().optional(),
      toolCalls: z
        .array(
          z.strictObject({
            name: z.string().min(1),
            arguments: z.union([z.record(z.string(), z.unknown()), z.string()]),
            id: z.string().optional(),
          }),
        )
        .optional(),
      usage: usageSchema.nullable().optional(),
      finishReason: z.enum(FINISH_REASONS).optional(),
    })
    .optional(),
  error: z
    .strictObject({
      status: z.number().int().min(400).max(599),
      message: z.string(),
      type: z.string().optional(),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  stallAfterChars: z.number().int().nonnegative().optional(),
  cutAfterChars: z.number().int().nonnegative().optional(),
  ttftMs: z.number().nonnegative().optional(),
  tokensPerSecond: z.number().positive().optional(),
}) satisfies z.ZodType<ScriptEntry>;

/** A request as the server received it, for tests to assert what each agent was sent. */
export interface RecordedRequest {
  /** Role read from the first system message's header; null when it has none of ours. */
  agent: AgentName | null;
  body: ChatCompletionRequest;
  /** Epoch milliseconds at receipt. */
  at: number;
  /** How the request asked to go on from a partial answer (offline-model/continuation.ts), if it did. */
  continuation?: 'prefix' | 'continue_final_message' | 'instruction';
  /** Content characters streamed to the client so far (streamed requests). */
  sentChars?: number;
  /** The provider profile the answer was shaped as (profiles.ts). */
  profile?: string;
}

/** Tuning of the default (unscripted) persona. */
export interface PersonaOptions {
  /** Target length of a drafted chapter: words in English, characters in Chinese. Default 1000. */
  chapterWords?: number;
}

export interface Timing {
  /** Delay before the first content token. */
  ttftMs: number;
  /** Pace of streamed pieces (roughly word-sized); >= 100000 is effectively instant. */
  tokensPerSecond: number;
}

export interface OfflineModelLogger {
  info(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export interface OfflineModelOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 300 ms. */
  ttftMs?: number;
  /** Default 80. */
  tokensPerSecond?: number;
  /** Default: info is silent, errors go to the console. */
  logger?: OfflineModelLogger;
  persona?: PersonaOptions;
}

/**
 * Answers every request itself, before any script or the persona: the unscripted-model soak
 * (tests/soak) answers from the whole space a real model can produce.
 */
export type Responder = (agent: AgentName | null, body: ChatCompletionRequest) => ScriptEntry;

/** A running offline model. */
export interface OfflineModel {
  /** e.g. `http://127.0.0.1:4321/v1` — pass to `new OpenAI({ baseURL, apiKey: 'offline' })`. */
  readonly baseURL: string;
  readonly port: number;
  /** Its HTTP server: a harness may listen for `request` to time each answer without a proxy in between. */
  readonly server: Server;
  /** Stops listening and drops open connections (stalled streams included). */
  close(): Promise<void>;
  /** Appends to the script and switches to scripted mode until {@link reset}. Throws on a malformed entry. */
  script(entries: ScriptEntry[]): void;
  /** Answers every request with `responder` until {@link reset} (null: back to script or persona). */
  respondWith(responder: Responder | null): void;
  /** Clears script, responder, requests and failures; back to persona mode. Timing is kept. */
  reset(): void;
  setTiming(t: Partial<Timing>): void;
  /** Every request body received, parsed, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Every "script exhausted / no matching entry" failure message. */
  readonly failures: string[];
  /** Script entries not yet consumed. */
  pendingEntries(): number;
  /** Requests still being handled (waiting, streaming or stalled); 0 once every client is answered or gone. */
  activeResponses(): number;
  /** Resolves once at least `n` requests were recorded; rejects after `timeoutMs` (default 10 s). */
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
}

/** A resolved answer, whatever produced it (script or persona). */
export interface ModelReply {
  content: string;
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  /** undefined: count with the tokenizer; null: send none. */
  usage?: UsageCounts | null;
  finishReason?: FinishReason;
  stallAfterChars?: number;
  cutAfterChars?: number;
  timing: Timing;
}
