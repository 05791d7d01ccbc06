import type { AnyEventDraft } from '../../core/events';
import type { AuthorScope } from '../../core/words/author-scope';
import { readAuthorMessage } from '../reading/segmenter';
import type { Models } from '../../db/models';
import type { ApprovalDecision, ToolOutcome } from '../../core/turn/turn-types';
import type { WorkAgent } from '../../core/plans';
import type { SkillRequestLimits } from '../../skills/limits';
import type { EarlySiblingCounts } from './sibling-counts';

/** What a tool can see: the turn it runs in, never another project's data. */
export interface ToolContext {
  models: Models;
  turnId: string;
  projectId: string;
  ownerId: string;
  agent: WorkAgent;
  /** The author's message in this turn (author-protection checks read it); empty in a job's turns, whose messages the system wrote. */
  authorMessage: string;
  /** The author's decision on this call's approval request, when one was asked (author-protection.ts). */
  approval?: ApprovalDecision;
  /** The file open in the author's editor this turn (counts as named for author protection). */
  focusFileId: string | null;
  /** Idempotency key of this call: turnId:step:toolCallId. */
  key: string;
  /** Agent run and LLM step of this call (read snapshots count per run, from the next step). */
  run: number;
  step: number;
  /** Stamps events with the turn's envelope fields. */
  event: (d: AnyEventDraft) => AnyEventDraft;
  /** Per-request skill allowance (load_skill, read_skill_resource); defaults when absent. */
  skillLimits?: SkillRequestLimits;
  /** Folder counts the LLM step started reading while the model made this call (sibling-counts.ts). */
  siblingCounts?: EarlySiblingCounts;
  /**
   * Settles once the step's answer is on record (an LLM step running its own calls): a call's
   * reads may go out before, its writes only after (step-tools.ts). Only create_file reads
   * ahead; every other call starts once it has settled.
   */
  answerRecorded?: Promise<unknown>;
}

/** What the author said this turn, as the author-protection matcher reads it. */
export const authorScope = (ctx: Pick<ToolContext, 'authorMessage' | 'focusFileId'>): AuthorScope => ({
  reading: readAuthorMessage(ctx.authorMessage),
  focusFileId: ctx.focusFileId,
});

/** The JSON the model gets back. Failures are data it can act on, never exceptions. */
export type ToolResultBody =
  ({ ok: true } & Record<string, unknown>) | { ok: false; error_type: string; message: string; [k: string]: unknown };

export interface ToolExecution {
  body: ToolResultBody;
  outcome: ToolOutcome;
  /** file_created / file_updated events to publish after tool_result. */
  events: AnyEventDraft[];
}

export function failure(
  name: string,
  errorType: string,
  message: string,
  extra: Record<string, unknown> = {},
): ToolExecution {
  return {
    body: { ok: false, error_type: errorType, message, ...extra },
    outcome: { name, ok: false, errorType, message },
    events: [],
  };
}

/**
 * The `invalid_arguments` failure for arguments the tool's schema rejected: one
 * "path: message" per issue, each path after `at` ("tasks.0.arguments.").
 */
export function invalidArguments(
  name: string,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  at = '',
): ToolExecution {
  return failure(
    name,
    'invalid_arguments',
    issues.map((i) => `${at}${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
  );
}
