/**
 * The failure breaker of a turn's tool calls: three identical failures in a row stop the run,
 * whether the calls came one by one or as the sub-tasks of a batch.
 */
import type { ToolOutcome } from '../core/turn/turn-types';

/** What the failure breaker says when it trips. */
export type BreakerTrip = {
  reason: 'repeated_unavailable_tool_call' | 'tool_failure_circuit_open';
  message: string;
};

/** Three identical consecutive tool failures stop the run. */
export class FailureBreaker {
  private signature = '';
  private count = 0;

  record(o: ToolOutcome): BreakerTrip | null {
    if (o.ok) {
      this.signature = '';
      this.count = 0;
      return null;
    }
    const sig = `${o.name}:${o.errorType ?? ''}`;
    this.count = sig === this.signature ? this.count + 1 : 1;
    this.signature = sig;
    if (this.count < 3) return null;
    const reason =
      o.errorType === 'tool_not_found' || o.errorType === 'tool_not_permitted'
        ? 'repeated_unavailable_tool_call'
        : 'tool_failure_circuit_open';
    return { reason, message: `${o.name} failed 3 times in a row (${o.errorType}): ${o.message ?? ''}`.trim() };
  }
}

/**
 * The failure breaker sees a batch as its sub-tasks, in order: three identical failing
 * reads trip it whether they came one by one or in a batch. A refused batch is one failure.
 */
export function recordBatch(breaker: FailureBreaker, outcome: ToolOutcome): BreakerTrip | null {
  if (!outcome.ok || !outcome.subOutcomes) return breaker.record(outcome);
  let tripped: BreakerTrip | null = null;
  for (const sub of outcome.subOutcomes) tripped ??= breaker.record(sub);
  return tripped;
}
