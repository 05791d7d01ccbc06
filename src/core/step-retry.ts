/**
 * The step_retry contract, apart from the event schemas so that clients (Studio's folds, the
 * CLI) read it without loading zod.
 */
import type { EventType } from './events';

/**
 * What a `step_retry` does to the events its step (the same `step`) published before it. The
 * step starts over and streams its output anew, so that output is void: its chat text, its
 * thinking and the body of the file it was streaming. Everything else it published stands,
 * because the retry never publishes it again (the LLM step): the usage of the
 * attempt (spent, and counted once), the saves, the tool cards and their results, approvals.
 * A client that drops more than the voided kinds loses them for good. Events of other steps,
 * and `step_resumed` (the step goes on from its text), void nothing.
 */
export const STEP_RETRY_VOIDS = ['content', 'thinking', 'file_content'] as const satisfies readonly EventType[];
export type RetryVoidedType = (typeof STEP_RETRY_VOIDS)[number];
/** The kinds a step publishes that stand across its `step_retry` (see {@link STEP_RETRY_VOIDS}). */
export const STEP_RETRY_STANDS = [
  'usage',
  'file_created',
  'file_updated',
  'tool_call',
  'tool_result',
  'approval_requested',
  'approval_decided',
] as const satisfies readonly EventType[];

/** True when `retry`, a `step_retry`, voids `earlier`, an event before it on the same stream. */
export function voidedByRetry(
  earlier: { type: EventType; step?: number },
  retry: { type: 'step_retry'; step?: number },
): boolean {
  return (
    earlier.step !== undefined &&
    earlier.step === retry.step &&
    (STEP_RETRY_VOIDS as readonly EventType[]).includes(earlier.type)
  );
}
