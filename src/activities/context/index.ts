/** Context assembly for agent steps: the turn's context and the cross-turn working set. */
export { assembleTurnContext, type ContextSettings, markChanged } from './assembler';
export { ensureTurnContext, type StepContext, storeTurnContext } from './turn-context';
export { capContextText, CONTEXT_FALLBACK_CHARS_PER_TOKEN } from './budget';
export { Priority, prioritize } from './priorities';
export { countStable, countTokens, MESSAGE_OVERHEAD_TOKENS } from './tokens';
