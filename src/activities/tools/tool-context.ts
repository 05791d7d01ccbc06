/** The context a tool call runs with, built in one place for single calls and parallel_execute sub-tasks. */
import { skillRequestLimits } from '../../skills/limits';
import type { ToolInput } from '../../core/turn/turn-types';
import type { ActivityDeps } from '../deps';
import type { EarlySiblingCounts } from './sibling-counts';
import type { ToolContext } from './types';

/** The fields of the Turn a tool needs. */
export interface ToolTurn {
  projectId: string;
  ownerId: string;
  message: string;
  focusFileId?: string | null;
  /** Set on a job's chapter turns: their message is the system's, not the author's. */
  jobId?: string | null;
}

export function toolContextFor(
  deps: ActivityDeps,
  turn: ToolTurn,
  input: ToolInput,
  key: string,
  event: ToolContext['event'],
  siblingCounts?: EarlySiblingCounts,
  answerRecorded?: Promise<unknown>,
): ToolContext {
  return {
    models: deps.models,
    turnId: input.turnId,
    projectId: turn.projectId,
    ownerId: turn.ownerId,
    agent: input.agent,
    // Nothing the system wrote itself (a job's instructions, chapter and revision messages) authorises anything.
    authorMessage: turn.jobId ? '' : turn.message,
    ...(input.approval ? { approval: input.approval } : {}),
    focusFileId: turn.focusFileId ?? null,
    key,
    run: input.run,
    step: input.step,
    event,
    skillLimits: skillRequestLimits(deps.config),
    siblingCounts,
    answerRecorded,
  };
}
