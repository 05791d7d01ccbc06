/**
 * Stable strings that other components recognise in prompts. The offline model reads
 * them to know which role it is answering for; tests assert on them. Pure module.
 */
import type { AgentName } from '../events';

/** First line of every system prompt: `# Scriptorium agent: writer` or `# Scriptorium router`. */
export function agentHeader(agent: AgentName): string {
  return agent === 'router' ? '# Scriptorium router' : `# Scriptorium agent: ${agent}`;
}

/** Reads the role back out of a system message; null when it names none. */
export function parseAgentHeader(systemPrompt: string): AgentName | null {
  // The last header: the role follows the project material, which could quote one.
  const all = [
    ...systemPrompt.matchAll(/^# Scriptorium (?:router|agent: (planner|hook_designer|writer|quality_reviewer))\s*$/gm),
  ];
  const m = all[all.length - 1];
  if (!m) return null;
  return (m[1] as AgentName | undefined) ?? 'router';
}

/** Opens the packet of a same-agent continuation round after a finished `<file>` block. */
export const FILE_STREAM_CONTINUATION_MARKER = '[file-stream continuation]';
/** Opens every handoff packet given to the next agent. */
export const HANDOFF_PACKET_MARKER = '[handoff packet]';
/** Marks the author's extra instruction sent while a turn runs. */
export const STEERING_MARKER = '[author steering]';
/** The writer's question to the author, passed verbatim to the reviewer. */
export const WRITER_QUESTION_MARKER = '[writer question for the author]';
/** Opens the review evidence block (word count, length requirements). */
export const REVIEW_EVIDENCE_MARKER = '[review evidence]';
/** Opens the packet of an empty-file correction round. */
export const EMPTY_FILE_REPAIR_MARKER = '[empty file correction]';
/** Where the review packet carries this turn's body files as saved. */
export const REVIEW_CONTENT_MARKER = '[content under review]';
/** First line of the next-step suggestions request (not an agent: parseAgentHeader answers null). */
export const SUGGESTIONS_HEADER = '# Scriptorium suggestions';
