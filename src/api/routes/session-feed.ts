/**
 * A session's live feed and its turns: what a second tab or device needs to follow
 * a session without polling. The feed is served exactly like a turn's or job's stream
 * (src/api/sse.ts: Last-Event-ID or ?after=, late join from the first event, `reset` for an
 * id it cannot answer for), but it never ends: a session has no terminal event.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../context';
import { documentRoute, type RouteSpec, toOpenApiPath } from '../route-specs';
import { issueStreamToken, streamReader, streamTokenSettings, userOf } from '../auth';
import { ownedSession } from '../ownership';
import { presentTurn } from '../present';
import { eventsQuery } from '../schemas';
import { resumeIdOf, serveSse } from '../sse';
import { parseId, parseQuery } from '../validation';
import { ACTIVE_TURN_STATUSES, objectIdSchema } from '../../core/domain';
import { streamEventSchema } from '../../core/events';
import { sessionFeedKey } from '../../streams/session-feed';
import { turnViewsOf } from '../../db/turn-views';

/**
 * `GET /sessions/:id/turns`: newest first; `active=true` keeps the running one (at most one per
 * session); `record=true` adds each finished turn's record of what the author saw.
 */
export const sessionTurnsQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    active: z.enum(['true', 'false']).optional(),
    record: z.enum(['true', 'false']).optional(),
  })
  .strict();

{
  const v1 = (p: string): string => `/api/v1${toOpenApiPath(p)}`;
  const params = z.object({ sessionId: objectIdSchema });
  const specs: RouteSpec[] = [
    {
      method: 'get',
      path: v1('/sessions/:sessionId/events'),
      summary:
        'The session’s feed (SSE): turn_started, turn_finished, approval_requested, approval_decided, job_started, job_progress, job_summary (a job’s closing message), job_finished — each with sessionId (and turnId / jobId). Never ends; resume with Last-Event-ID or ?after=',
      tag: 'sessions',
      params,
      query: eventsQuery,
      produces: { type: 'text/event-stream', schema: streamEventSchema },
    },
    {
      method: 'post',
      path: v1('/sessions/:sessionId/stream-token'),
      summary: 'A short-lived token for this session’s feed (EventSource cannot send headers)',
      tag: 'sessions',
      params,
      status: 201,
    },
    {
      method: 'get',
      path: v1('/sessions/:sessionId/turns'),
      summary:
        'The session’s turns, newest first (active=true: the one running now, to join its stream from the start), each with its streamUrl; record=true adds `record`, what the author saw in each finished turn (agents, text, steps, file cards with versions, approvals, handoffs, stops, verdict, usage and cost, suggestions: the fold of its stream, kept after the stream expired), null before it ended',
      tag: 'sessions',
      params,
      query: sessionTurnsQuery,
    },
  ];
  specs.forEach(documentRoute);
}

export function sessionFeedRouter(deps: AppDeps): Router {
  const r = Router();
  const { models, config } = deps;
  const resource = (sessionId: string): string => `session:${sessionId}`;

  r.post('/sessions/:sessionId/stream-token', async (req, res) => {
    const userId = userOf(req);
    const s = await ownedSession(models, userId, parseId(req.params.sessionId, 'sessionId'));
    res
      .status(201)
      .json(issueStreamToken(userId, resource(String(s._id)), streamTokenSettings(config), deps.clock().getTime()));
  });

  r.get('/sessions/:sessionId/turns', async (req, res) => {
    const q = parseQuery(sessionTurnsQuery, req.query);
    const s = await ownedSession(models, userOf(req), parseId(req.params.sessionId, 'sessionId'));
    const filter: Record<string, unknown> = { sessionId: String(s._id) };
    if (q.active) filter.status = q.active === 'true' ? { $in: ACTIVE_TURN_STATUSES } : { $nin: ACTIVE_TURN_STATUSES };
    const list = await models.Turn.find(filter).sort({ createdAt: -1 }).limit(q.limit).lean();
    // Records by `_id` (the index FerretDB v1 answers), one read for the page.
    const records =
      q.record === 'true'
        ? await turnViewsOf(
            models,
            list.map((t) => String(t._id)),
          )
        : null;
    res.json({
      items: list.map((t) => ({
        ...presentTurn(t),
        streamUrl: `/api/v1/turns/${String(t._id)}/events`,
        ...(records ? { record: records.get(String(t._id)) ?? null } : {}),
      })),
    });
  });

  r.get('/sessions/:sessionId/events', async (req, res) => {
    const sessionId = parseId(req.params.sessionId, 'sessionId');
    const q = parseQuery(eventsQuery, req.query);
    resumeIdOf(req); // a malformed Last-Event-ID is refused before any lookup, as on turn streams
    await ownedSession(
      models,
      streamReader(req, resource(sessionId), q.token, streamTokenSettings(config), deps.clock().getTime()),
      sessionId,
    );
    await serveSse(
      req,
      res,
      deps.redis,
      {
        key: sessionFeedKey(config.REDIS_KEY_PREFIX, sessionId),
        stateUrl: `/api/v1/sessions/${sessionId}`,
        envelope: { sessionId },
        // Ids are Redis's own (`<ms>-<n>`, see src/streams/session-feed.ts): no slot counts on
        // record; trimmed or expired heads are still told apart by the stream's own counters.
        // A session never ends: an expired feed answers a resuming client with `reset`, and a
        // fresh one waits for the next event.
        hasEnded: async () => false,
      },
      { keepAliveMs: config.SSE_KEEPALIVE_MS, retryMs: config.SSE_RETRY_MS, clock: deps.clock },
    );
  });
  return r;
}
