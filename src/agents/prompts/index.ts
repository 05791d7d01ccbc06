/**
 * Assembles an agent's instructions from data: the shared system prompt (base protocol +
 * project type), the agent's role (header + role text) and this turn's directives (the scope directive, regenerated
 * per agent, and the reply language). Pure module.
 */
import type { AgentName } from '../../core/events';
import type { ProjectType } from '../../core/domain';
import { agentHeader } from '../../core/model/markers';
import { BASE_PROTOCOL } from './base';
import { PROJECT_TYPE_PROMPTS } from './project-types';
import { ROLE_PROMPTS, ROUTER_PROMPT } from './roles';

export { ROUTER_PROMPT };

/** What the router decided about the author's scope; drives the scope directive. */
export interface ScopeFacts {
  scope: string;
  writeContent: boolean;
  readOnly: boolean;
  clarifyFirst: boolean;
  /** Agents still planned after this one. */
  remainingPlan: readonly AgentName[];
}

const PLANNING_AGENTS: readonly AgentName[] = ['planner', 'hook_designer'];

/**
 * Turns the routing scope into instructions for one agent. Regenerated before every run:
 * the "hand over to the writer when the plan is done" line only makes sense for planners.
 */
export function scopeDirective(agent: AgentName, facts: ScopeFacts): string {
  const lines = [`Author's scope for this turn: ${facts.scope || '(not stated)'}.`];
  if (facts.readOnly) lines.push('This turn is read-only: answer or review; do not create, edit or delete files.');
  if (facts.clarifyFirst)
    lines.push(
      'The request is too vague to act on: ask the author exactly what to change (one short question). File-writing tools are refused this turn.',
    );
  if (!facts.writeContent && !facts.readOnly)
    lines.push('The author did not ask for prose in this turn: do not write chapter text.');
  if (PLANNING_AGENTS.includes(agent) && facts.writeContent && facts.remainingPlan.includes('writer'))
    lines.push(
      'The author already asked for the prose: when your part is saved, stop; the writer takes over automatically. Do not ask whether to continue.',
    );
  return lines.join('\n');
}

export function languageDirective(language: 'zh' | 'en'): string {
  return language === 'zh'
    ? 'Reply language: Simplified Chinese (the author wrote in Chinese). 使用简体中文回复。'
    : 'Reply language: English (the language the author writes this session in).';
}

/**
 * What every writing agent is told first, the same for every agent and turn of a project: the
 * protocol and the project type. With the shared tool list and the project material after it,
 * this start is what a provider's prefix cache serves to every agent of a turn and every
 * chapter of a job. The role comes later ({@link rolePrompt}), after the material.
 */
export function buildSystemPrompt(opts: { projectType: ProjectType }): string {
  return [BASE_PROTOCOL, PROJECT_TYPE_PROMPTS[opts.projectType]].join('\n\n');
}

/**
 * Who this agent is: its header and role, sent after the project material and the session
 * history, beside the turn's directives. Placed first, it made every agent's prompt differ
 * from its first characters, so the next agent of a turn re-read the whole project uncached.
 */
export function rolePrompt(agent: Exclude<AgentName, 'router'>): string {
  return `${agentHeader(agent)}\n\n${ROLE_PROMPTS[agent]}`;
}

/** This turn's instructions for an agent: the author's scope and the reply language. */
export function turnDirectives(
  agent: Exclude<AgentName, 'router'>,
  opts: { language: 'zh' | 'en'; scope: ScopeFacts },
): string {
  return [scopeDirective(agent, opts.scope), languageDirective(opts.language)].join('\n\n');
}

export function buildRouterSystemPrompt(): string {
  return `${agentHeader('router')}\n\n${ROUTER_PROMPT}`;
}
