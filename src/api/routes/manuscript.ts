/**
 * The manuscript as a whole: its board (chapters in order with status, words, synopsis and
 * goals), renaming a file or setting its goal, moving and renumbering chapters (titles and
 * order only, never text), and search across every live file's title and text.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../context';
import { userOf } from '../auth';
import { loadBoard, moveChapter, renumberChapters } from '../board';
import { sendJson } from '../json-response';
import { documentRoute, type RouteSpec, toOpenApiPath } from '../route-specs';
import { ownedFile, ownedProject } from '../ownership';
import { presentFileSummary } from '../present';
import { moveChapterBody, patchFileBody, searchQuery } from '../schemas';
import { parseBody, parseId, parseQuery } from '../validation';
import { inTreeOrder, titleNumber } from '../../core/book/chapter-order';
import { objectIdSchema } from '../../core/domain';
import { searchFiles } from '../../core/book/search';
import type { Models } from '../../db/models';

{
  const v1 = (p: string): string => `/api/v1${toOpenApiPath(p)}`;
  const params = z.object({ projectId: objectIdSchema });
  const specs: RouteSpec[] = [
    {
      method: 'patch',
      path: v1('/files/:fileId'),
      summary: 'Rename a file or set its word goal (null clears): no new version, the text is untouched',
      tag: 'files',
      params: z.object({ fileId: objectIdSchema }),
      body: patchFileBody,
      errors: [400, 401, 404, 413],
    },
    {
      method: 'get',
      path: v1('/projects/:projectId/board'),
      summary:
        'The manuscript board: chapters in order (files, and outline entries without a file) with status planned / drafted / reviewed, words, word goal, the outline’s synopsis; totals and the project’s goals',
      tag: 'manuscript',
      params,
    },
    {
      method: 'post',
      path: v1('/projects/:projectId/chapters/move'),
      summary:
        'Move a chapter to another place (0-based index in the chapter order); numbered titles are renumbered to follow (“Chapter 3: The Bell” moved second becomes “Chapter 2: The Bell”). Titles and order only: no text changes. 409 while a job writes chapters',
      tag: 'manuscript',
      params,
      body: moveChapterBody,
      errors: [400, 401, 404, 409],
    },
    {
      method: 'post',
      path: v1('/projects/:projectId/chapters/renumber'),
      summary:
        'Renumber the chapters 1, 2, 3 … in their current order (closing gaps left by deleted chapters). Titles only. 409 while a job writes chapters',
      tag: 'manuscript',
      params,
      errors: [400, 401, 404, 409],
    },
    {
      method: 'get',
      path: v1('/projects/:projectId/search'),
      summary:
        'Search titles and text of the project’s live files (case-insensitive substrings, so Chinese matches inside words; several words that never occur as a phrase find the files holding all of them). Results in the manuscript’s order, title matches first, each with its first hits (offsets and a snippet) and their count',
      tag: 'manuscript',
      params,
      query: searchQuery,
    },
  ];
  specs.forEach(documentRoute);
}

/** Every live file with its text, in the manuscript's order. */
async function searchableFiles(models: Models, projectId: string, ownerId: string) {
  const files = await models.File.find({ projectId, ownerId, deletedAt: null })
    .select({ title: 1, type: 1, order: 1, content: 1, createdAt: 1 })
    .lean();
  return inTreeOrder(files.map((f) => ({ ...f, id: String(f._id) })));
}

export function manuscriptRouter(deps: AppDeps): Router {
  const r = Router();
  const { models } = deps;

  r.patch('/files/:fileId', async (req, res) => {
    const fileId = parseId(req.params.fileId, 'fileId');
    const body = parseBody(patchFileBody, req.body);
    const userId = userOf(req);
    await ownedFile(models, userId, fileId);
    // Not a new version: the text is untouched, and `updatedAt` stays the time the text last changed.
    await models.File.updateOne(
      { _id: fileId, ownerId: userId, deletedAt: null },
      { $set: body },
      { timestamps: false },
    );
    res.json(presentFileSummary(await ownedFile(models, userId, fileId)));
  });

  r.get('/projects/:projectId/board', async (req, res) => {
    const project = await ownedProject(models, userOf(req), parseId(req.params.projectId, 'projectId'));
    sendJson(req, res, await loadBoard(models, project));
  });

  r.post('/projects/:projectId/chapters/move', async (req, res) => {
    const projectId = parseId(req.params.projectId, 'projectId');
    const body = parseBody(moveChapterBody, req.body);
    await ownedProject(models, userOf(req), projectId);
    res.json(await moveChapter(models, projectId, body.fileId, body.to));
  });

  r.post('/projects/:projectId/chapters/renumber', async (req, res) => {
    const projectId = parseId(req.params.projectId, 'projectId');
    await ownedProject(models, userOf(req), projectId);
    res.json(await renumberChapters(models, projectId));
  });

  r.get('/projects/:projectId/search', async (req, res) => {
    const projectId = parseId(req.params.projectId, 'projectId');
    const q = parseQuery(searchQuery, req.query);
    const userId = userOf(req);
    await ownedProject(models, userId, projectId);
    const started = Date.now();
    const files = await searchableFiles(models, projectId, userId);
    const byId = new Map(files.map((f) => [f.id, f]));
    const { results, mode } = searchFiles(files, q.q);
    sendJson(req, res, {
      query: q.q,
      mode,
      /** Matches in all files (title matches not counted). */
      total: results.reduce((n, f) => n + f.count, 0),
      files: results.length,
      truncated: results.length > q.limit,
      results: results.slice(0, q.limit).map((f) => ({
        fileId: f.id,
        title: f.title,
        type: byId.get(f.id)!.type,
        number: titleNumber(f.title),
        titleMatch: f.titleMatch,
        count: f.count,
        hits: f.hits,
      })),
      tookMs: Date.now() - started,
    });
  });
  return r;
}
