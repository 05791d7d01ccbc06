import { type RequestHandler, Router } from 'express';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { AppDeps } from '../context';
import { issueStreamToken, streamReader, streamTokenSettings, userOf } from '../auth';
import { NotFoundError } from '../errors';
import { ownedSession, ownedTurn } from '../ownership';
import { presentTurn } from '../present';
import { approvalBody, approvalIdSchema, eventsQuery, interruptBody, startTurnBody, steerBody } from '../schemas';
import { decideApproval, decisionInMessage } from '../approvals';
import { resumeIdOf, serveSse } from '../sse';
import { startTurn } from '../turn-starter';
import pLimit from 'p-limit';
import { namedSkillIds } from './skills';
import { parseBody, parseId, parseQuery } from '../validation';
import type { Models } from '../../db/models';
import { ACTIVE_TURN_STATUSES, type TurnStatus } from '../../core/domain';
import { isObjectId } from '../../core/ids';
import { turnStreamKey } from '../../streams/redis-streams';
import { slotCounts } from '../../db/stream-ledger';
import { interruptSignal, stateQuery, steerSignal } from '../../core/turn/messages';
import { requestIdOfRequest } from '../../observability/http';
import { ConflictError } from '../errors';

/** The session's running turn when it waits for an approval (with its pending request). */
async function waitingForApproval(models: Models, turnId: string) {
  if (!isObjectId(turnId)) return null;
  const t = await models.Turn.findById(turnId).lean();
  return t?.status === 'awaiting_approval' && t.pendingApproval ? t : null;
}

/** Waits (bounded) for a turn to end after its approval was denied: the new message then starts the next turn. */
async function turnEnded(deps: AppDeps, turnId: string): Promise<void> {
  const deadline = deps.clock().getTime() + deps.config.APPROVAL_FOLLOW_UP_WAIT_SECONDS * 1000;
  while (deps.clock().getTime() < deadline) {
    const t = await deps.models.Turn.findById(turnId).select({ status: 1 }).lean();
    if (!t || !ACTIVE_TURN_STATUSES.includes(t.status as TurnStatus)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Starts the session's next turn with `start`, or, when its running turn waits for the
 * author's approval, reads `message` as their answer (and, unless it is a plain yes or no,
 * starts the next turn once the denied one has ended).
 */
async function startOrAnswer(deps: AppDeps, start: () => ReturnType<typeof startTurn>, message: string) {
  return start().catch(async (err: unknown) => {
    // The running turn waits for the author's approval: this message is their answer, not a 409.
    const waiting =
      err instanceof ConflictError ? await waitingForApproval(deps.models, String(err.details?.turnId ?? '')) : null;
    if (!waiting) throw err;
    const decision = decisionInMessage(message);
    const approvalId = String((waiting.pendingApproval as { approvalId?: string }).approvalId);
    await decideApproval(deps, waiting, approvalId, decision === 'approve' ? 'approve' : 'deny');
    if (decision !== 'new_request') return { answered: waiting, approvalId, decision };
    // Anything else is a no, and the session's next turn once this one ends.
    await turnEnded(deps, String(waiting._id));
    return start();
  });
}

/** Runs `fn` on the workflow of the author's turn while it is active; 409 when it is not (or its workflow is gone). */
async function signalActive(deps: AppDeps, userId: string, turnId: string, fn: (workflowId: string) => Promise<void>) {
  const turn = await ownedTurn(deps.models, userId, turnId);
  if (!ACTIVE_TURN_STATUSES.includes(turn.status as TurnStatus))
    throw new ConflictError(`turn is ${turn.status}`, { status: turn.status });
  try {
    await fn(turn.workflowId);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new ConflictError('turn is no longer running');
    throw err;
  }
  return turn;
}

/** What the turn routes share: the app, the start gate and body schema, and stream tokens. */
interface TurnRoutes {
  deps: AppDeps;
  models: Models;
  config: AppDeps['config'];
  bodySchema: ReturnType<typeof startTurnBody>;
  startGate: ReturnType<typeof pLimit>;
  streamToken: (userId: string, turnId: string) => ReturnType<typeof issueStreamToken>;
}

function turnRoutes(deps: AppDeps): TurnRoutes {
  const { models, config } = deps;
  const bodySchema = startTurnBody(config.MAX_MESSAGE_CHARS);
  // First come, first started: 50 starts sharing the process all finished after about a
  // second, so the turns then moved through the worker in lockstep; in arrival order the
  // first turns get ahead (bench:turn --concurrency 50 prints the spread of first tokens).
  const startGate = pLimit(config.TURN_START_CONCURRENCY);

  const streamToken = (userId: string, turnId: string) =>
    issueStreamToken(userId, `turn:${turnId}`, streamTokenSettings(config), deps.clock().getTime());

  return { deps, models, config, bodySchema, startGate, streamToken };
}

function startTurnRoute({ deps, models, config, bodySchema, startGate, streamToken }: TurnRoutes): RequestHandler {
  return async (req, res) => {
    const sessionId = parseId(req.params.sessionId, 'sessionId');
    const body = parseBody(bodySchema, req.body);
    const userId = userOf(req);
    const session = await ownedSession(models, userId, sessionId);
    for (const id of [body.focusFileId, ...(body.attachedFileIds ?? [])].filter(Boolean) as string[])
      if (!(await models.File.exists({ _id: id, projectId: session.projectId, deletedAt: null })))
        throw new NotFoundError(`file ${id}`);
    const skills = body.skills?.length
      ? await namedSkillIds(models, userId, body.skills, config.SKILLS_PER_REQUEST)
      : undefined;
    const uiLanguage = body.uiLanguage ?? (session.uiLanguage as 'zh' | 'en' | null) ?? undefined;
    const start = () =>
      startGate(() =>
        startTurn(deps, {
          ownerId: userId,
          sessionId,
          projectId: session.projectId,
          ...body,
          uiLanguage,
          skills,
          requestId: requestIdOfRequest(req),
        }),
      );
    const started = await startOrAnswer(deps, start, body.message);
    // An answered approval reports the turn it answered, and what the message decided there.
    const { turnId, workflowId } =
      'answered' in started
        ? { turnId: String(started.answered._id), workflowId: started.answered.workflowId }
        : started;
    const { token } = streamToken(userId, turnId);
    const approval =
      'answered' in started ? { approval: { approvalId: started.approvalId, decision: started.decision } } : {};
    res
      .status(202)
      .json({ turnId, workflowId, streamUrl: `/api/v1/turns/${turnId}/events`, streamToken: token, ...approval });
  };
}

function approvalRoute({ deps, models }: TurnRoutes): RequestHandler {
  return async (req, res) => {
    const turnId = parseId(req.params.turnId, 'turnId');
    const approvalId = approvalIdSchema.parse(req.params.approvalId);
    const { decision } = parseBody(approvalBody, req.body);
    const turn = await ownedTurn(models, userOf(req), turnId);
    if (!ACTIVE_TURN_STATUSES.includes(turn.status as TurnStatus))
      throw new ConflictError(
        `turn is ${turn.status}: approval ${approvalId} is not pending`,
        { status: turn.status },
        'approval_not_pending',
      );
    const result = await decideApproval(deps, turn, approvalId, decision);
    res.json({ turnId, ...result });
  };
}

function getTurnRoute({ deps, models }: TurnRoutes): RequestHandler {
  return async (req, res) => {
    const turn = await ownedTurn(models, userOf(req), parseId(req.params.turnId, 'turnId'));
    let live = null;
    if (ACTIVE_TURN_STATUSES.includes(turn.status as TurnStatus)) {
      live = await deps.temporal.workflow
        .getHandle(turn.workflowId)
        .query(stateQuery)
        .catch(() => null);
    }
    res.json({ ...presentTurn(turn), live });
  };
}

function interruptRoute({ deps }: TurnRoutes): RequestHandler {
  return async (req, res) => {
    const turnId = parseId(req.params.turnId, 'turnId');
    const body = parseBody(interruptBody, req.body);
    const turn = await signalActive(deps, userOf(req), turnId, (wf) =>
      deps.temporal.workflow.getHandle(wf).signal(interruptSignal, { reason: body.reason }),
    );
    res.status(202).json({ turnId: String(turn._id), interrupted: true });
  };
}

function steerRoute({ deps }: TurnRoutes): RequestHandler {
  return async (req, res) => {
    const turnId = parseId(req.params.turnId, 'turnId');
    const body = parseBody(steerBody, req.body);
    const turn = await signalActive(deps, userOf(req), turnId, (wf) =>
      deps.temporal.workflow.getHandle(wf).signal(steerSignal, { message: body.message }),
    );
    res.status(202).json({ turnId: String(turn._id), steered: true });
  };
}

function turnStreamTokenRoute({ models, streamToken }: TurnRoutes): RequestHandler {
  return async (req, res) => {
    const userId = userOf(req);
    const turn = await ownedTurn(models, userId, parseId(req.params.turnId, 'turnId'));
    res.status(201).json(streamToken(userId, String(turn._id)));
  };
}

function turnEventsRoute({ deps, models, config }: TurnRoutes): RequestHandler {
  return async (req, res) => {
    const turnId = parseId(req.params.turnId, 'turnId');
    const q = parseQuery(eventsQuery, req.query);
    resumeIdOf(req); // a malformed Last-Event-ID is refused before any lookup
    const turn = await ownedTurn(
      models,
      streamReader(req, `turn:${turnId}`, q.token, streamTokenSettings(config), deps.clock().getTime()),
      turnId,
    );
    await serveSse(
      req,
      res,
      deps.redis,
      {
        key: turnStreamKey(config.REDIS_KEY_PREFIX, turnId),
        stateUrl: `/api/v1/turns/${turnId}`,
        envelope: { turnId },
        publishedCounts: () => slotCounts(models, turnStreamKey(config.REDIS_KEY_PREFIX, turnId)),
        hasEnded: async () => {
          const t = await models.Turn.findById(turnId).select({ status: 1 }).lean();
          return !t || !ACTIVE_TURN_STATUSES.includes(t.status as TurnStatus);
        },
        endedWhenOpened: !ACTIVE_TURN_STATUSES.includes(turn.status as TurnStatus),
      },
      { keepAliveMs: config.SSE_KEEPALIVE_MS, retryMs: config.SSE_RETRY_MS, clock: deps.clock },
    );
  };
}

export function turnsRouter(deps: AppDeps): Router {
  const r = Router();
  const routes = turnRoutes(deps);
  r.post('/sessions/:sessionId/turns', startTurnRoute(routes));
  r.post('/turns/:turnId/approvals/:approvalId', approvalRoute(routes));
  r.get('/turns/:turnId', getTurnRoute(routes));
  r.post('/turns/:turnId/interrupt', interruptRoute(routes));
  r.post('/turns/:turnId/steer', steerRoute(routes));
  r.post('/turns/:turnId/stream-token', turnStreamTokenRoute(routes));
  r.get('/turns/:turnId/events', turnEventsRoute(routes));
  return r;
}
