/**
 * The messages after the author's one in a step's prompt: what teammates said earlier in this
 * turn (their chat text only), the run's handoff packet, this run's own tool loop (each
 * earlier step's reply and its tool results), then any steering. Keyed for the worker's
 * stable token counts, so text that never changes once written is counted once.
 */
import type OpenAI from 'openai';
import { STEERING_MARKER } from '../../core/model/markers';
import type { LlmStepInput } from '../../core/turn/turn-types';
import type { stepsUpTo } from '../turn/turn-reads';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type StoredStep = Awaited<ReturnType<typeof stepsUpTo>>[number];

/** The messages after the author's one. */
export interface Tail {
  tail: ChatMessage[];
  /** Stable-count keys of tail messages (undefined: counted afresh). */
  keys: (string | undefined)[];
  /** Indexes of this run's earlier tool results: the last resort when the ledger overflows with no history left. */
  elidable: number[];
}

/** Teammates earlier in this turn: their chat text only (their tool loops are theirs); then the run's packet. */
function teammatesAndPacket(steps: StoredStep[], input: LlmStepInput): Tail {
  const tail: ChatMessage[] = [];
  const keys: (string | undefined)[] = [];
  let lastRun = -1;
  for (const s of steps.filter((x) => x.run < input.run)) {
    if (!s.text.trim()) continue;
    if (s.run !== lastRun) {
      tail.push({ role: 'assistant', content: `[${s.agent}] ${s.text}` });
      keys.push(`${input.turnId}:team:${s.run}`);
    } else (tail[tail.length - 1] as { content: string }).content += s.text;
    lastRun = s.run;
  }
  // A run's later steps reuse the packet its first step stored (review content expanded).
  const packet = input.packet ?? steps.find((s) => s.run === input.run && s.packet)?.packet ?? null;
  if (packet) tail.push({ role: 'user', content: packet });
  keys.length = tail.length;
  return { tail, keys, elidable: [] };
}

/** This run's own tool loop so far: each earlier step's reply and its tool results, appended to `t`. */
function appendOwnToolLoop(t: Tail, steps: StoredStep[], input: LlmStepInput): void {
  const { tail, keys, elidable } = t;
  const own = steps.filter((x) => x.run === input.run);
  for (const s of own) {
    keys[tail.length] = `${input.turnId}:${s.step}:raw`;
    tail.push({
      role: 'assistant',
      content: s.rawContent || null,
      ...(s.toolCalls.length
        ? {
            tool_calls: s.toolCalls.map((c) => ({
              id: c.id!,
              type: 'function' as const,
              function: { name: c.name!, arguments: c.arguments || '{}' },
            })),
          }
        : {}),
    });
    for (const c of s.toolCalls) {
      const r = s.toolResults.find((x) => x.toolCallId === c.id);
      if (s !== own[own.length - 1]) elidable.push(tail.length);
      if (r) keys[tail.length] = `${input.turnId}:${s.step}:${c.id}`;
      tail.push({
        role: 'tool',
        tool_call_id: c.id!,
        content:
          r?.content ?? '{"ok":false,"error_type":"not_executed","message":"The turn stopped before this call ran."}',
      });
    }
  }
}

/** Teammates, the packet, this run's tool loop and the steering: everything after the author's message. */
export function buildTail(steps: StoredStep[], input: LlmStepInput): Tail {
  const t = teammatesAndPacket(steps, input);
  appendOwnToolLoop(t, steps, input);
  for (const s of input.steering) t.tail.push({ role: 'user', content: `${STEERING_MARKER} ${s}` });
  return t;
}
