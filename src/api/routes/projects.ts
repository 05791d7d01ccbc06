import { Router } from 'express';
import type { AppDeps } from '../context';
import { userOf } from '../auth';
import { ownedProject } from '../ownership';
import { presentProject } from '../present';
import { createProjectBody, listQuery } from '../schemas';
import { parseBody, parseId, parseQuery } from '../validation';

export function projectsRouter(deps: AppDeps): Router {
  const r = Router();
  const { models } = deps;

  r.post('/projects', async (req, res) => {
    const body = parseBody(createProjectBody, req.body);
    const p = await models.Project.create({ ...body, ownerId: userOf(req) });
    res.status(201).json(presentProject(p.toObject()));
  });

  r.get('/projects', async (req, res) => {
    const q = parseQuery(listQuery, req.query);
    const list = await models.Project.find({ ownerId: userOf(req) }).sort({ createdAt: -1 }).limit(q.limit).lean();
    res.json({ items: list.map(presentProject) });
  });

  r.get('/projects/:projectId', async (req, res) => {
    const p = await ownedProject(models, userOf(req), parseId(req.params.projectId, 'projectId'));
    res.json(presentProject(p));
  });
  return r;
}
