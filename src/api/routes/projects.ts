/**
 * Projects: create, list, read, edit, delete and restore. A delete is soft: the project leaves
 * the author's list and every route (404, like a missing one) with its files, versions and
 * conversations kept as they are, until the author restores it from the deleted projects
 * (`GET /projects?deleted=true`, `POST /projects/{id}/undelete`). Nothing is erased, so a
 * delete cannot lose a book; it is refused while a turn or a job is writing in the project.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../context';
import { userOf } from '../auth';
import { ConflictError, NotFoundError } from '../errors';
import { ACTIVE_JOB_STATUSES } from '../job-starter';
import { documentRoute, type RouteSpec, toOpenApiPath } from '../route-specs';
import { ownedProject } from '../ownership';
import { presentProject } from '../present';
import { createProjectBody, projectListQuery, updateProjectBody } from '../schemas';
import { parseBody, parseId, parseQuery } from '../validation';
import { ACTIVE_TURN_STATUSES, objectIdSchema } from '../../core/domain';
import { casLost, casWritten, CompareAndSetExhausted, compareAndSet } from '../../db/compare-and-set';
import type { Models } from '../../db/models';
import { readProjectState, writeProjectState } from '../../db/project-state';

{
  const v1 = (p: string): string => `/api/v1${toOpenApiPath(p)}`;
  const params = z.object({ projectId: objectIdSchema });
  const specs: RouteSpec[] = [
    {
      method: 'patch',
      path: v1('/projects/:projectId'),
      summary:
        'Edit a project: title, type, author, summary, style, and word goals (wordGoal for the book, chapterWordGoal per chapter; null clears)',
      tag: 'projects',
      params,
      body: updateProjectBody,
      errors: [400, 401, 404, 409, 413],
    },
    {
      method: 'delete',
      path: v1('/projects/:projectId'),
      summary:
        'Delete a project: it leaves your list with its files and conversations kept, restorable with undelete; 409 while a turn or job runs in it',
      tag: 'projects',
      params,
      status: 204,
      errors: [400, 401, 404, 409],
    },
    {
      method: 'post',
      path: v1('/projects/:projectId/undelete'),
      summary: 'Restore a deleted project with everything it had',
      tag: 'projects',
      params,
      errors: [400, 401, 404, 409],
    },
  ];
  specs.forEach(documentRoute);
}

/** Summary and style are agent-writable state under the project's revision: changed by compare-and-set, never over a concurrent write. */
async function writeSummaryAndStyle(
  models: Models,
  projectId: string,
  changes: { summary?: string; style?: string },
): Promise<void> {
  if (changes.summary === undefined && changes.style === undefined) return;
  await compareAndSet(
    `summary and style of project ${projectId}`,
    async () => {
      const read = await readProjectState(models, projectId);
      if (!read) return casWritten(undefined);
      return (await writeProjectState(models, projectId, read, changes)) ? casWritten(undefined) : casLost;
    },
    { attempts: 8 },
  ).catch((err: unknown) => {
    if (err instanceof CompareAndSetExhausted)
      throw new ConflictError('the project kept changing while it was saved: try again', undefined, 'project_busy');
    throw err;
  });
}

/** A running turn or an active job would go on writing into a project that is gone from the author's desk. */
async function refuseWhileWriting(models: Models, projectId: string): Promise<void> {
  const turn = await models.Turn.findOne({ projectId, status: { $in: ACTIVE_TURN_STATUSES } })
    .select({ _id: 1 })
    .lean();
  if (turn)
    throw new ConflictError(
      'a turn is running in this project: stop it or wait for it to end, then delete',
      { turnId: String(turn._id) },
      'project_busy',
    );
  const job = await models.Job.findOne({ projectId, status: { $in: ACTIVE_JOB_STATUSES } })
    .select({ _id: 1, status: 1 })
    .lean();
  if (job)
    throw new ConflictError(
      'a job is working in this project: cancel it or let it finish, then delete',
      { jobId: String(job._id), status: job.status },
      'project_busy',
    );
}

export function projectsRouter(deps: AppDeps): Router {
  const r = Router();
  const { models } = deps;

  r.post('/projects', async (req, res) => {
    const body = parseBody(createProjectBody, req.body);
    const p = await models.Project.create({ ...body, ownerId: userOf(req) });
    res.status(201).json(presentProject(p.toObject()));
  });

  r.get('/projects', async (req, res) => {
    const q = parseQuery(projectListQuery, req.query);
    const deleted = q.deleted === 'true';
    const list = await models.Project.find({ ownerId: userOf(req), deletedAt: deleted ? { $ne: null } : null })
      .sort(deleted ? { deletedAt: -1 } : { createdAt: -1 })
      .limit(q.limit)
      .lean();
    res.json({ items: list.map((p) => ({ ...presentProject(p), ...(deleted ? { deletedAt: p.deletedAt } : {}) })) });
  });

  r.get('/projects/:projectId', async (req, res) => {
    const p = await ownedProject(models, userOf(req), parseId(req.params.projectId, 'projectId'));
    res.json(presentProject(p));
  });

  r.patch('/projects/:projectId', async (req, res) => {
    const projectId = parseId(req.params.projectId, 'projectId');
    const body = parseBody(updateProjectBody, req.body);
    const userId = userOf(req);
    await ownedProject(models, userId, projectId);
    const { summary, style, ...plain } = body;
    if (Object.keys(plain).length) await models.Project.updateOne({ _id: projectId, ownerId: userId }, { $set: plain });
    await writeSummaryAndStyle(models, projectId, { summary, style });
    res.json(presentProject(await ownedProject(models, userId, projectId)));
  });

  r.delete('/projects/:projectId', async (req, res) => {
    const projectId = parseId(req.params.projectId, 'projectId');
    const userId = userOf(req);
    await ownedProject(models, userId, projectId);
    await refuseWhileWriting(models, projectId);
    await models.Project.updateOne(
      { _id: projectId, ownerId: userId, deletedAt: null },
      { $set: { deletedAt: deps.clock() } },
    );
    res.status(204).end();
  });

  r.post('/projects/:projectId/undelete', async (req, res) => {
    const projectId = parseId(req.params.projectId, 'projectId');
    const userId = userOf(req);
    const p = await models.Project.findOne({ _id: projectId, ownerId: userId }).lean();
    if (!p) throw new NotFoundError('project');
    if (!p.deletedAt) throw new ConflictError('the project is not deleted', undefined, 'not_deleted');
    await models.Project.updateOne({ _id: projectId, ownerId: userId }, { $set: { deletedAt: null } });
    res.json(presentProject(await ownedProject(models, userId, projectId)));
  });
  return r;
}
