/**
 * Chat Completions wire objects: the non-streaming `chat.completion`, the streamed
 * `chat.completion.chunk`s and the OpenAI error body. Pure builders; the transport
 * decides when each one is written.
 */
import { defaultDialect, type Dialect } from './profiles';
import { splitPieces } from './tokens';
import type { ModelReply, UsageCounts } from './types';

/** Fixed so identical requests produce identical bytes. */
export const FIXED_CREATED = 1700000000;

export interface CompletionMeta {
  id: string;
  model: string;
  /** The provider profile the answer is shaped as (profiles.ts); the original shape when absent. */
  dialect?: Dialect;
  /** The client asked for usage (`stream_options.include_usage`). */
  includeUsage?: boolean;
}

/** A script entry's own finish reason (`length`, `content_filter`, …) wins over the natural one. */
function finishReason(reply: ModelReply): string {
  return reply.finishReason ?? (reply.toolCalls.length > 0 ? 'tool_calls' : 'stop');
}

/** The whole answer as one `chat.completion` object. */
export function completionObject(
  meta: CompletionMeta,
  reply: ModelReply,
  usage: UsageCounts | null,
): Record<string, unknown> {
  const dialect = meta.dialect ?? defaultDialect;
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: reply.content === '' && reply.toolCalls.length > 0 ? null : reply.content,
    refusal: null,
  };
  if (reply.reasoning && dialect.reasoningField) message[dialect.reasoningField] = reply.reasoning;
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((c) => ({
      id: dialect.toolCallId(c.id),
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  const body: Record<string, unknown> = {
    id: meta.id,
    object: 'chat.completion',
    created: FIXED_CREATED,
    model: meta.model,
    system_fingerprint: dialect.systemFingerprint,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(reply) }],
  };
  if (usage) body.usage = dialect.wireUsage(usage);
  return body;
}

/** One streamed frame's payload: either a delta or (with `usage`) the final usage chunk. */
export type Chunk = Record<string, unknown>;

/** The fields every streamed chunk of one completion shares. */
const chunkEnvelope = (meta: CompletionMeta) => ({
  id: meta.id,
  object: 'chat.completion.chunk',
  created: FIXED_CREATED,
  model: meta.model,
  system_fingerprint: meta.dialect?.systemFingerprint ?? null,
});

function chunk(meta: CompletionMeta, delta: Record<string, unknown>, finish: string | null = null): Chunk {
  const dialect = meta.dialect ?? defaultDialect;
  const shaped = dialect.roleOnEveryDelta ? { role: 'assistant', ...delta } : delta;
  const out: Chunk = {
    ...chunkEnvelope(meta),
    choices: [{ index: 0, delta: shaped, logprobs: null, finish_reason: finish }],
  };
  // OpenAI: "When present, it contains a null value except for the last chunk".
  if (dialect.usageNullOnChunks && meta.includeUsage) out.usage = null;
  return out;
}

/** A step of a streamed answer: a chunk, and whether it counts as a paced token. */
export interface StreamStep {
  chunk: Chunk;
  /** Reasoning, content and tool steps are paced tokens; role and finish are not. */
  kind: 'role' | 'reasoning' | 'content' | 'tool' | 'finish';
  /** Content characters streamed once this step is written (for `stallAfterChars`). */
  contentChars: number;
}

/**
 * Every chunk of a streamed answer in order: role, reasoning pieces, content pieces, each
 * tool call's header then its argument pieces, the finish chunk. The usage chunk is not
 * included; the transport adds it after the finish when the client asked for it.
 */
export function* streamSteps(meta: CompletionMeta, reply: ModelReply): Generator<StreamStep> {
  const dialect = meta.dialect ?? defaultDialect;
  let contentChars = 0;
  if (dialect.roleChunk) {
    yield {
      chunk: chunk(meta, { role: 'assistant', content: '', ...(dialect.name === 'openai' ? { refusal: null } : {}) }),
      kind: 'role',
      contentChars,
    };
  }
  const field = dialect.reasoningField;
  // A profile that keeps thinking hidden (OpenAI) streams none of it; its tokens are still counted.
  for (const piece of field ? splitPieces(reply.reasoning) : []) {
    yield {
      chunk: chunk(meta, { ...(dialect.nullContentWithReasoning ? { content: null } : {}), [field!]: piece }),
      kind: 'reasoning',
      contentChars,
    };
  }
  for (const piece of splitPieces(reply.content)) {
    contentChars += piece.length;
    yield { chunk: chunk(meta, { content: piece }), kind: 'content', contentChars };
  }
  for (const [index, call] of reply.toolCalls.entries()) yield* toolCallSteps(meta, dialect, index, call, contentChars);
  yield { chunk: chunk(meta, {}, finishReason(reply)), kind: 'finish', contentChars };
}

/** One tool call: whole in one chunk (Ollama), or a header then its arguments in pieces. */
function* toolCallSteps(
  meta: CompletionMeta,
  dialect: Dialect,
  index: number,
  call: ModelReply['toolCalls'][number],
  contentChars: number,
): Generator<StreamStep> {
  const id = dialect.toolCallId(call.id);
  if (dialect.wholeToolCalls) {
    yield {
      chunk: chunk(meta, {
        content: '',
        tool_calls: [{ id, index, type: 'function', function: { name: call.name, arguments: call.arguments } }],
      }),
      kind: 'tool',
      contentChars,
    };
    return;
  }
  yield {
    chunk: chunk(meta, { tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    kind: 'tool',
    contentChars,
  };
  for (const piece of splitPieces(call.arguments)) {
    yield {
      chunk: chunk(meta, { tool_calls: [{ index, function: { arguments: piece } }] }),
      kind: 'tool',
      contentChars,
    };
  }
}

/** The final chunk of an `include_usage` stream: no choices, just usage. */
export function usageChunk(meta: CompletionMeta, usage: UsageCounts): Chunk {
  return {
    ...chunkEnvelope(meta),
    choices: [],
    usage: (meta.dialect ?? defaultDialect).wireUsage(usage),
  };
}

/** Number of paced pieces in an answer, for the non-streaming delay. */
export function pacedPieceCount(reply: ModelReply): number {
  let n = splitPieces(reply.reasoning).length + splitPieces(reply.content).length;
  for (const call of reply.toolCalls) n += 1 + splitPieces(call.arguments).length;
  return n;
}

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
export function errorBody(
  message: string,
  type = 'invalid_request_error',
  code: string | null = null,
): Record<string, unknown> {
  return { error: { message, type, param: null, code } };
}

/** One SSE frame. */
export function sseFrame(data: Chunk | '[DONE]'): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}
