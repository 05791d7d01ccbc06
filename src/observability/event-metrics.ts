/**
 * Counters derived from the events activities publish. Every figure a client can see on a
 * stream is counted where it is published, so activities (llm.ts, tools/) carry no metrics
 * code of their own. Called with the events that were actually written: a retried activity
 * re-publishing the same ids is not counted twice.
 */
import type { AnyEventDraft } from '../core/events';
import { metrics } from './metrics';

const BREAKER_CODES = new Set(['repeated_unavailable_tool_call', 'tool_failure_circuit_open']);

export function observeEvents(events: readonly AnyEventDraft[]): void {
  for (const e of events) {
    switch (e.type) {
      case 'usage': {
        const labels = { agent: e.agent ?? 'unknown', usage_source: e.data.source };
        metrics.tokens.inc({ ...labels, kind: 'prompt' }, e.data.promptTokens);
        metrics.tokens.inc({ ...labels, kind: 'completion' }, e.data.completionTokens);
        if (e.data.cachedPromptTokens)
          metrics.tokens.inc({ ...labels, kind: 'cached_prompt' }, e.data.cachedPromptTokens);
        if (e.data.costUsd) metrics.costUsd.inc({ agent: labels.agent, model: e.data.model }, e.data.costUsd);
        break;
      }
      case 'tool_result':
        if (!e.data.ok) metrics.toolFailures.inc({ tool: e.data.name, error_type: e.data.errorType ?? 'unknown' });
        break;
      case 'error':
        if (BREAKER_CODES.has(e.data.code)) metrics.breakerTrips.inc({ reason: e.data.code });
        break;
      default:
        break;
    }
  }
}
