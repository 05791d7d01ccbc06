/**
 * Starting a turn: one running turn per session (a lock document inserted atomically),
 * the author's message recorded, then workflow `turn-<turnId>`. The workflow id always
 * comes from our own ids.
 */
import { turnStartOptions } from '../core/turn/turn-start';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Config } from '../config';
import { CompareAndSetExhausted } from '../db/compare-and-set';
import { newId } from '../db/models';
import { createTurnRecords, releaseSessionLock, type StaleLockCheck, takeSessionLock } from '../db/turn-records';
import { nameSession } from '../db/session-names';
import { type TurnStatus, turnWorkflowId } from '../core/domain';
import type { TurnInput, TurnSettings } from '../core/turn/turn-types';
import type { turnWorkflow } from '../workflows/turn';
import type { RoutingDecision } from '../core/plans';
import { workflowRunning } from '../workflow-liveness';
import type { AppDeps } from './context';
import { ConflictError, UnavailableError } from './errors';

export function turnSettings(config: Config): TurnSettings {
  return {
    maxAgentRuns: config.MAX_AGENT_RUNS,
    maxAgentSteps: config.MAX_AGENT_STEPS,
    reviewWordThreshold: config.REVIEW_WORD_THRESHOLD,
    maxReviewRounds: config.REVIEW_MAX_ROUNDS,
    llmStartToCloseSeconds: config.LLM_STEP_TIMEOUT_SECONDS,
    llmHeartbeatTimeoutSeconds: config.LLM_HEARTBEAT_TIMEOUT_SECONDS,
    storeHeartbeatTimeoutSeconds: config.STORE_HEARTBEAT_TIMEOUT_SECONDS,
    suggestionsEnabled: config.SUGGESTIONS_ENABLED,
    routerStrategy: config.ROUTER_STRATEGY,
    approvalWaitSeconds: config.APPROVAL_WAIT_SECONDS,
  };
}

/** Lets a new turn clear a lock left by a request that died before starting its workflow. */
export function staleLockCheck(deps: Pick<AppDeps, 'config' | 'temporal' | 'clock'>): StaleLockCheck {
  return {
    graceMs: deps.config.START_GRACE_SECONDS * 1000,
    now: deps.clock,
    workflowOpen: (turnId) => workflowRunning(deps.temporal, turnWorkflowId(turnId)),
  };
}

export interface StartTurnRequest {
  ownerId: string;
  sessionId: string;
  projectId: string;
  message: string;
  focusFileId?: string;
  attachedFileIds?: string[];
  quotes?: string[];
  /** Ids of the author's enabled skills named for this turn. */
  skills?: string[];
  jobId?: string;
  forcedRouting?: RoutingDecision;
  /** The starting request's id, kept on the Turn and in the workflow's memo. */
  requestId?: string;
  /** The author's interface language (the reply language until a message sets one). */
  uiLanguage?: 'zh' | 'en';
}

export async function startTurn(
  deps: AppDeps,
  req: StartTurnRequest,
): Promise<{ turnId: string; workflowId: string; eagerlyStarted: boolean }> {
  const { models, config } = deps;
  await deps.faults?.pause?.('api.turn.start', { sessionId: req.sessionId });
  const turnId = newId();
  const workflowId = turnWorkflowId(turnId);
  const { busyWith } = await takeSessionLock(models, req.sessionId, turnId, staleLockCheck(deps)).catch(
    (err: unknown) => {
      if (err instanceof CompareAndSetExhausted)
        throw new ConflictError('the session’s lock kept changing hands: try again');
      throw err;
    },
  );
  if (busyWith) throw new ConflictError('a turn is already running in this session', { turnId: busyWith });
  let eagerlyStarted = false;
  try {
    // The turn id was minted above: nothing can be on record for it yet.
    const { seq } = await createTurnRecords(models, { turnId, ...req }, { newTurn: true });
    // The window a dying API process leaves behind: lock and queued Turn, no workflow.
    deps.faults?.hit('api.turn.before_workflow_start', { sessionId: req.sessionId });
    const input: TurnInput = {
      turnId,
      sessionId: req.sessionId,
      projectId: req.projectId,
      ownerId: req.ownerId,
      message: req.message,
      settings: turnSettings(config),
      ...(req.forcedRouting ? { forcedRouting: req.forcedRouting } : {}),
      ...(req.jobId ? { jobId: req.jobId } : {}),
      ...(seq ? { openingSeq: seq } : {}),
    };
    const [handle] = await Promise.all([
      deps.temporal.workflow.start<typeof turnWorkflow>('turnWorkflow', {
        ...turnStartOptions(input, `turn · ${req.message.slice(0, 80)}`),
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        ...(req.requestId ? { memo: { requestId: req.requestId } } : {}),
        ...(deps.eagerStart ? { requestEagerStart: true } : {}),
      }),
      // The session's first message names it (when nobody titled it), beside the start. A name
      // that could not be written is not the turn's failure: the session list names it later.
      seq === 1 ? nameSession(models, req.sessionId, req.message).catch(() => undefined) : null,
    ]);
    eagerlyStarted = handle.eagerlyStarted;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) throw err;
    await models.Turn.updateOne(
      { _id: turnId },
      { $set: { status: 'failed' satisfies TurnStatus, stopReason: 'start_failed', endedAt: deps.clock() } },
    );
    await releaseSessionLock(models, req.sessionId, turnId);
    deps.logger.error({ err, turnId }, 'could not start the turn workflow');
    throw new UnavailableError('could not start the turn: the workflow service is unavailable');
  }
  return { turnId, workflowId, eagerlyStarted };
}
