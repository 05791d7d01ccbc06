/**
 * The persona's router: keyword heuristics over the author's message, answered as one
 * JSON object in the router's output shape.
 */
import { truncate } from '../../core/text';
import type { AgentName } from '../types';
import { fileOrderOf } from './file-orders';

export type WorkflowPlan = 'quick' | 'standard' | 'full' | 'hook_focus' | 'review_only';

export interface RoutingDecision {
  current_agent: AgentName;
  workflow_plan: WorkflowPlan;
  workflow_agents: AgentName[];
  write_content: boolean;
  read_only: boolean;
  scope: string;
}

const REVIEW = /\b(review|critique|critic|feedback|assess|evaluate|proofread)\b|审|评/i;
const HOOK = /\bhooks?\b|钩子|开篇|开头/i;
const PLAN = /\b(outline|plan|planning|synopsis|structure|beat sheet)\b|大纲|规划|提纲|梗概/i;
const WRITE_VERB =
  /\b(write|writing|continue|draft|rewrite|revise|edit|polish|tighten|expand|add|change|fix|make|create|generate|start|finish|shorten|cut)\b|写|续|改|润色|扩|删|生成|创作|开始/i;
const CHAPTER_TEXT = /\b(chapter|scene|prose|story|text)\b|章|正文|场景/i;
const QUESTION_START = /^(what|why|how|who|when|where|which|is|are|can|could|does|do|did|should|would|will)\b/i;
const QUESTION_MARK = /[?？]\s*$|吗|什么|为什么|怎么|如何|哪/;

/** The scope field: the author's request on one line, at most 40 characters. */
function scopeOf(text: string): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), 40) || 'continue';
}

/** Drops a plan's agents the way the plan table does (write_content=false drops the writer). */
function decision(
  plan: WorkflowPlan,
  agents: AgentName[],
  writeContent: boolean,
  readOnly: boolean,
  text: string,
): RoutingDecision {
  const trimmed = readOnly ? [] : writeContent ? agents : agents.filter((a) => a !== 'writer');
  const planned = plan === 'review_only' ? agents : trimmed;
  return {
    current_agent: planned[0] ?? agents[0],
    workflow_plan: plan,
    workflow_agents: planned,
    write_content: writeContent,
    read_only: readOnly,
    scope: scopeOf(text),
  };
}

/** Routes the author's message; deterministic and total (every text gets a route). */
export function routeMessage(text: string): RoutingDecision {
  const t = text.trim();
  // An order about whole files (delete or rewrite a chapter, add character sheets), even asked
  // as a question, goes to the writer with its write tools: the engine asks the author first
  // when their words did not clearly order it.
  if (fileOrderOf(t)) return decision('quick', ['writer'], true, false, t);
  const wantsWrite = WRITE_VERB.test(t);
  const wantsProse = wantsWrite && CHAPTER_TEXT.test(t);
  // "Review chapter 2" is read-only; "critique the dialogue and rewrite the scene" is a write.
  if (REVIEW.test(t) && !wantsProse) {
    return decision('review_only', ['quality_reviewer'], false, true, t);
  }
  const hook = HOOK.test(t);
  const plan = PLAN.test(t);
  if (hook && plan) return decision('full', ['planner', 'hook_designer', 'writer'], wantsProse, false, t);
  if (hook) return decision('hook_focus', ['hook_designer', 'writer'], wantsProse, false, t);
  if (plan) return decision('standard', ['planner', 'writer'], wantsProse, false, t);
  if (!wantsWrite && (QUESTION_START.test(t) || QUESTION_MARK.test(t))) {
    return decision('quick', ['writer'], false, true, t);
  }
  return decision('quick', ['writer'], true, false, t);
}
