/**
 * `_id`s of a turn's own records, derived from what the turn knows: a retry writes the same
 * document, and a reader finds it by `_id` (the one filter FerretDB v1 looks up directly).
 */

/** An LLM step's transcript (AgentStep). */
export const stepId = (turnId: string, step: number): string => `${turnId}:${step}`;

/** The usage record of one model call: an LLM step, the router or the next-step suggestions. */
export const usageId = (turnId: string, call: number | 'router' | 'suggestions'): string => `${turnId}:${call}`;
