/**
 * Ownership checks: every lookup is by id AND owner. Another owner's id answers 404,
 * exactly like a missing one, so ids cannot be probed (OWASP API1, BOLA).
 */
import type { Models } from '../db/models';
import { NotFoundError } from './errors';

/** The caller's live project: a project the author deleted answers 404 here too (only undelete reaches it). */
export async function ownedProject(models: Models, userId: string, id: string) {
  const p = await models.Project.findOne({ _id: id, ownerId: userId, deletedAt: null }).lean();
  if (!p) throw new NotFoundError('project');
  return p;
}

export async function ownedSession(models: Models, userId: string, id: string) {
  const s = await models.Session.findOne({ _id: id, ownerId: userId }).lean();
  if (!s) throw new NotFoundError('session');
  return s;
}

export async function ownedTurn(models: Models, userId: string, id: string) {
  const t = await models.Turn.findOne({ _id: id, ownerId: userId }).lean();
  if (!t) throw new NotFoundError('turn');
  return t;
}

export async function ownedFile(models: Models, userId: string, id: string) {
  const f = await models.File.findOne({ _id: id, ownerId: userId, deletedAt: null }).lean();
  if (!f) throw new NotFoundError('file');
  return f;
}

export async function ownedJob(models: Models, userId: string, id: string) {
  const j = await models.Job.findOne({ _id: id, ownerId: userId }).lean();
  if (!j) throw new NotFoundError('job');
  return j;
}
