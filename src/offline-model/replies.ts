/**
 * Turns a script entry or a persona answer into the one reply shape the transport
 * writes, with deterministic tool call ids and the effective timing.
 */
import type { PersonaReply } from './persona';
import type { ModelReply, ScriptEntry, Timing } from './types';

/** `call_<hash8>_<index>`: the same request always gets the same ids. */
export function toolCallId(requestHash: string, index: number): string {
  return `call_${requestHash.slice(0, 8)}_${index}`;
}

/** The reply a script entry describes (its `error`, if any, is handled before this). */
export function replyFromEntry(entry: ScriptEntry, requestHash: string, timing: Timing): ModelReply {
  const r = entry.reply ?? {};
  return {
    content: r.content ?? '',
    reasoning: r.reasoning ?? '',
    toolCalls: (r.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? toolCallId(requestHash, i),
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    })),
    usage: r.usage,
    finishReason: r.finishReason,
    stallAfterChars: entry.stallAfterChars,
    cutAfterChars: entry.cutAfterChars,
    timing: { ttftMs: entry.ttftMs ?? timing.ttftMs, tokensPerSecond: entry.tokensPerSecond ?? timing.tokensPerSecond },
  };
}

/** The reply the persona chose; usage is always counted. */
export function replyFromPersona(reply: PersonaReply, requestHash: string, timing: Timing): ModelReply {
  return {
    content: reply.content,
    reasoning: '',
    toolCalls: reply.toolCalls.map((c, i) => ({
      id: toolCallId(requestHash, i),
      name: c.name,
      arguments: JSON.stringify(c.arguments),
    })),
    timing,
  };
}

/** OpenAI's error `type` for a status, when the script does not name one. */
export function errorTypeFor(status: number): string {
  if (status === 400) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}
