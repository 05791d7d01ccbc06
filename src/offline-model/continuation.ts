/**
 * The offline model asked to go on from a partial answer (src/core/model/continuation.ts), by any
 * of the three ways a provider takes: DeepSeek's assistant `prefix`, vLLM's
 * `continue_final_message`, or the partial as an assistant message followed by the engine's
 * instruction to continue. It answers as the model it plays would: the rest of the answer it
 * gives the request without the partial — and, asked by instruction, it first repeats the
 * partial's last words (up to {@link REPEATED_CHARS}, never its opening blank lines), as real
 * models often do, so the engine's overlap removal is exercised.
 */
import { CONTINUE_INSTRUCTION } from '../core/model/continuation';
import { messageText } from './tokens';
import type { ChatCompletionRequest, ChatMessage, ModelReply } from './types';

export type ContinuationMode = 'prefix' | 'continue_final_message' | 'instruction';

export interface ContinuationAsk {
  mode: ContinuationMode;
  partial: string;
  /** The request as it was before the partial was added: what the reply is chosen from. */
  base: ChatCompletionRequest;
}

/** Characters an instructed continuation repeats before going on. */
export const REPEATED_CHARS = 30;

const isAssistant = (m: ChatMessage | undefined): m is ChatMessage => m?.role === 'assistant' && !m.tool_calls?.length;

/** The continuation a request asks for, or null for an ordinary request. */
export function continuationAsk(body: ChatCompletionRequest): ContinuationAsk | null {
  const { messages } = body;
  const last = messages[messages.length - 1];
  const withoutLast = (n: number): ChatCompletionRequest => {
    const base: Record<string, unknown> = { ...body, messages: messages.slice(0, messages.length - n) };
    delete base.continue_final_message;
    delete base.add_generation_prompt;
    return base as ChatCompletionRequest;
  };
  if (isAssistant(last) && (last as { prefix?: unknown }).prefix === true)
    return { mode: 'prefix', partial: messageText(last), base: withoutLast(1) };
  if (isAssistant(last) && (body as { continue_final_message?: unknown }).continue_final_message === true) {
    return { mode: 'continue_final_message', partial: messageText(last), base: withoutLast(1) };
  }
  const before = messages[messages.length - 2];
  if (last?.role === 'user' && messageText(last) === CONTINUE_INSTRUCTION && isAssistant(before)) {
    return { mode: 'instruction', partial: messageText(before), base: withoutLast(2) };
  }
  return null;
}

/** The rest of `reply` after the partial (the whole reply when it does not start with it). */
export function continueReply(reply: ModelReply, ask: ContinuationAsk): ModelReply {
  if (!reply.content.startsWith(ask.partial)) return reply;
  // A model restating its last words starts at a word, never at the blank lines its answer
  // opened with: a short partial is repeated from its first word.
  const opening = ask.partial.length - ask.partial.trimStart().length;
  const from = ask.mode === 'instruction' ? Math.max(opening, ask.partial.length - REPEATED_CHARS) : ask.partial.length;
  // Its thinking was done before the cut; the rest of the answer follows without it.
  return { ...reply, content: reply.content.slice(from), reasoning: '' };
}
