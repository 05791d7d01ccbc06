import { Router } from 'express';
import type { AppDeps } from '../context';
import { userOf } from '../auth';
import { ownedProject, ownedSession } from '../ownership';
import { presentMessage, presentSession } from '../present';
import { createSessionBody, listQuery } from '../schemas';
import { parseBody, parseId, parseQuery } from '../validation';
import { nameUntitled } from '../../db/session-names';

export function sessionsRouter(deps: AppDeps): Router {
  const r = Router();
  const { models } = deps;

  r.post('/sessions', async (req, res) => {
    const body = parseBody(createSessionBody, req.body);
    const userId = userOf(req);
    await ownedProject(models, userId, body.projectId);
    const s = await models.Session.create({
      projectId: body.projectId,
      title: body.title ?? '',
      ownerId: userId,
      uiLanguage: body.uiLanguage ?? null,
    });
    res.status(201).json(presentSession(s.toObject()));
  });

  r.get('/sessions', async (req, res) => {
    const q = parseQuery(listQuery, req.query);
    const userId = userOf(req);
    const filter: Record<string, unknown> = { ownerId: userId };
    // Another owner's project answers 404 here too, not an empty list that confirms nothing.
    if (q.projectId) filter.projectId = String((await ownedProject(models, userId, q.projectId))._id);
    const list = await models.Session.find(filter).sort({ createdAt: -1 }).limit(q.limit).lean();
    res.json({ items: (await nameUntitled(models, list)).map(presentSession) });
  });

  r.get('/sessions/:sessionId', async (req, res) => {
    const s = await ownedSession(models, userOf(req), parseId(req.params.sessionId, 'sessionId'));
    const [named] = await nameUntitled(models, [s]);
    res.json(presentSession(named!));
  });

  /** Messages in their stable order (seq), with tool breadcrumbs. */
  r.get('/sessions/:sessionId/messages', async (req, res) => {
    const s = await ownedSession(models, userOf(req), parseId(req.params.sessionId, 'sessionId'));
    const list = await models.Message.find({ sessionId: String(s._id) })
      .sort({ seq: 1, createdAt: 1 })
      .limit(1000)
      .lean();
    res.json({ items: list.map(presentMessage) });
  });
  return r;
}
