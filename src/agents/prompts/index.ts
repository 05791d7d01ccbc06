/**
 * Assembles an agent's instructions from data: the standing system prompt (base protocol +
 * project type + header + role) and this turn's directives (the scope directive, regenerated
 * per agent, and the reply language). Pure module.
 */
import type { AgentName } from '../../core/events';
import type { ProjectType } from '../../core/domain';
import { agentHeader } from '../../core/markers';
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
    lines.push('The request is too vague to act on: ask the author exactly what to change (one short question). File-writing tools are refused this turn.');
  if (!facts.writeContent && !facts.readOnly) lines.push('The author did not ask for prose in this turn: do not write chapter text.');
  if (PLANNING_AGENTS.includes(agent) && facts.writeContent && facts.remainingPlan.includes('writer'))
    lines.push('The author already asked for the prose: when your part is saved, stop; the writer takes over automatically. Do not ask whether to continue.');
  return lines.join('\n');
}

export function languageDirective(language: 'zh' | 'en'): string {
  return language === 'zh'
    ? 'Reply language: Simplified Chinese (the author wrote in Chinese). 使用简体中文回复。'
    : 'Reply language: English (the language the author writes this session in).';
}

/**
 * An agent's standing instructions, the same in every turn: what every agent shares first
 * (the protocol, the project type), then the role. A provider's prefix cache serves the
 * shared start to every agent of a turn, and all of it to the same agent in the next chapter
 * (issue 32); what changes per turn is {@link turnDirectives}, sent after the project material.
 */
export function buildSystemPrompt(agent: Exclude<AgentName, 'router'>, opts: { projectType: ProjectType }): string {
  return [BASE_PROTOCOL, PROJECT_TYPE_PROMPTS[opts.projectType], agentHeader(agent), ROLE_PROMPTS[agent]].join('\n\n');
}

/** This turn's instructions for an agent: the author's scope and the reply language. */
export function turnDirectives(agent: Exclude<AgentName, 'router'>, opts: { language: 'zh' | 'en'; scope: ScopeFacts }): string {
  return [scopeDirective(agent, opts.scope), languageDirective(opts.language)].join('\n\n');
}

export function buildRouterSystemPrompt(): string {
  return `${agentHeader('router')}\n\n${ROUTER_PROMPT}`;
}
