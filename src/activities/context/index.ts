/** Context assembly for agent steps (seed 001 ContextAssembler and 跨轮工作集). */
export {
  assembleTurnContext,
  type ContextSettings,
  ensureTurnContext,
  markChanged,
  type StepContext,
  storeTurnContext,
} from './assembler';
export { Priority, prioritize } from './priorities';
export { countStable, countTokens, MESSAGE_OVERHEAD_TOKENS } from './tokens';
