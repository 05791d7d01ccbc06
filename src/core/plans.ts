/**
 * Plan table and routing decision shape. Pure module.
 */
import { z } from 'zod';
import type { AgentName } from './events';

export const WORK_AGENTS = ['planner', 'hook_designer', 'writer', 'quality_reviewer'] as const;
export type WorkAgent = (typeof WORK_AGENTS)[number];
export const workAgentSchema = z.enum(WORK_AGENTS);

export const PLANS = ['quick', 'standard', 'full', 'hook_focus', 'review_only'] as const;
export type PlanName = (typeof PLANS)[number];

/** Upper bound of each plan's agent sequence; every writer run may be followed by a review. */
export const PLAN_TABLE: Record<PlanName, readonly WorkAgent[]> = {
  quick: ['writer'],
  standard: ['planner', 'writer'],
  full: ['planner', 'hook_designer', 'writer'],
  hook_focus: ['hook_designer', 'writer'],
  review_only: ['quality_reviewer'],
};

/** Max length of the router's scope summary (the prompt asks for 40; this is the hard cut). */
export const MAX_SCOPE_CHARS = 80;

/** What the LLM router must answer (validated; anything else degrades to the fallback). */
export const routerAnswerSchema = z.object({
  current_agent: workAgentSchema,
  workflow_plan: z.enum(PLANS),
  workflow_agents: z.array(workAgentSchema).max(8).default([]),
  write_content: z.boolean(),
  read_only: z.boolean(),
  scope: z.string().default(''),
});
export type RouterAnswer = z.infer<typeof routerAnswerSchema>;

export type RoutingSource =
  | 'llm'
  | 'fallback'
  | 'resume_after_exhaustion'
  | 'inherit_after_question'
  | 'confirm_proposal'
  /** The author declined an offered step: answered without a model, nothing written. */
  | 'decline_offer'
  | 'clarify_first'
  | 'forced'
  /** ROUTER_STRATEGY=off: the writer starts every turn, no router call. */
  | 'router_off';

/**
 * The routing the turn runs with, saved on the turn and shown to the next turn's router. It is
 * decided once per turn (rules or the router) and only read afterwards, so every field is
 * read-only; the workflow also freezes it where the turn takes it in.
 */
export interface RoutingDecision {
  readonly current_agent: WorkAgent;
  readonly workflow_plan: PlanName;
  /** Agents that run after `current_agent`, already trimmed by the author's scope. */
  readonly workflow_agents: readonly WorkAgent[];
  readonly write_content: boolean;
  readonly read_only: boolean;
  readonly scope: string;
  readonly clarify_first: boolean;
  readonly source: RoutingSource;
  /** Why the router answer was not used as given (fallback, overrides). */
  readonly notes: readonly string[];
}

/**
 * The plan's sequence trimmed by the author's scope: no prose wanted → no writer;
 * read-only → nothing after the first agent (router.plan_workflow_agents).
 */
export function planWorkflowAgents(plan: PlanName, opts: { writeContent: boolean; readOnly: boolean }): WorkAgent[] {
  if (opts.readOnly) return [];
  const agents = PLAN_TABLE[plan];
  return opts.writeContent ? [...agents] : agents.filter((a) => a !== 'writer');
}

export function cutScope(scope: string): string {
  const chars = Array.from(scope.trim());
  return chars.length <= MAX_SCOPE_CHARS ? chars.join('') : chars.slice(0, MAX_SCOPE_CHARS).join('');
}

/**
 * Makes the router's answer consistent with the plan table: the table is the upper bound,
 * the answer may only drop agents; the current agent does not repeat at the head.
 */
export function normaliseRouterAnswer(
  answer: RouterAnswer,
  source: RoutingSource,
  notes: string[] = [],
): RoutingDecision {
  const allowed = planWorkflowAgents(answer.workflow_plan, {
    writeContent: answer.write_content,
    readOnly: answer.read_only,
  });
  const asked = answer.workflow_agents.filter((a) => allowed.includes(a));
  let sequence = asked.length > 0 || answer.workflow_agents.length > 0 ? asked : allowed;
  if (sequence[0] === answer.current_agent) sequence = sequence.slice(1);
  return {
    current_agent: answer.current_agent,
    workflow_plan: answer.workflow_plan,
    workflow_agents: sequence,
    write_content: answer.write_content,
    read_only: answer.read_only,
    scope: cutScope(answer.scope),
    clarify_first: false,
    source,
    notes,
  };
}

/** The writer alone on a quick plan: the router fallback and the job chapter route. */
export function writerAloneRouting(source: RoutingSource, scope: string, notes: string[]): RoutingDecision {
  return {
    current_agent: 'writer',
    workflow_plan: 'quick',
    workflow_agents: [],
    write_content: true,
    read_only: false,
    scope,
    clarify_first: false,
    source,
    notes,
  };
}

/** Safe default when the router fails: the writer alone, quick plan. */
export function fallbackRouting(reason: string): RoutingDecision {
  return writerAloneRouting('fallback', '', [`router fallback: ${reason}`]);
}

export const isWorkAgent = (a: AgentName | string): a is WorkAgent => (WORK_AGENTS as readonly string[]).includes(a);
