/**
 * Skills REST: import a SKILL.md package as a zip, list, read, export as
 * a zip, enable / disable, delete. Skills belong to one user: another user's skill ids
 * answer 404 like everything else. Import refuses hostile archives with a `skill_*` code
 * naming the reason (src/skills/package.ts); nothing in a skill is ever executed.
 */
import express, { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../context';
import { userOf } from '../auth';
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import { documentRoute, type RouteSpec, toOpenApiPath } from '../route-specs';
import { parseBody, parseId, parseQuery } from '../validation';
import { isDuplicateKey, type Models, type SkillDoc } from '../../db/models';
import { objectIdSchema } from '../../core/domain';
import { resolveNamedSkills } from '../../skills/active-skills';
import { type SkillImportLimits, skillImportLimits } from '../../skills/limits';
import { readSkillZip, type SkillPackage, SkillPackageError, writeSkillZip } from '../../skills/package';

export const importSkillQuery = z.object({ replace: z.enum(['true', 'false']).optional() }).strict();
export const updateSkillBody = z.object({ enabled: z.boolean() }).strict();
const emptyQuery = z.object({}).strict();

const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream'];

{
  const v1 = (p: string): string => `/api/v1${toOpenApiPath(p)}`;
  const params = z.object({ skillId: objectIdSchema });
  const specs: RouteSpec[] = [
    {
      method: 'post',
      path: v1('/skills/import'),
      summary:
        'Import a skill: the request body is a zip (application/zip) holding SKILL.md (YAML front matter with name and description, then Markdown) and optional text files. ' +
        'Refused with 400 skill_* codes for path traversal, absolute paths, links, encrypted, binary, oversize or too many files, a missing or invalid SKILL.md; ' +
        '413 over SKILL_ZIP_MAX_BYTES; 409 when a skill of that name exists (pass ?replace=true to replace it). Scripts are stored as text and never run.',
      tag: 'skills',
      query: importSkillQuery,
      rawBody: ZIP_TYPES,
      status: 201,
      errors: [400, 401, 409, 413],
    },
    {
      method: 'get',
      path: v1('/skills'),
      summary: 'Your skills (without file contents)',
      tag: 'skills',
      errors: [400, 401],
    },
    {
      method: 'get',
      path: v1('/skills/:skillId'),
      summary: 'One skill with its method and file list',
      tag: 'skills',
      params,
    },
    {
      method: 'get',
      path: v1('/skills/:skillId/export'),
      summary: 'The skill as a zip: SKILL.md as imported and its files',
      tag: 'skills',
      params,
      produces: { type: 'application/zip', schema: z.string() },
    },
    {
      method: 'patch',
      path: v1('/skills/:skillId'),
      summary: 'Enable or disable a skill',
      tag: 'skills',
      params,
      body: updateSkillBody,
    },
    { method: 'delete', path: v1('/skills/:skillId'), summary: 'Delete a skill', tag: 'skills', params, status: 204 },
  ];
  specs.forEach(documentRoute);
}

export const presentSkill = (s: SkillDoc, withBody = false) => ({
  id: String(s._id),
  name: s.name,
  description: s.description,
  enabled: s.enabled,
  metadata: s.metadata ?? {},
  resources: (s.resources ?? []).map((r) => ({ path: r.path, kind: r.kind, chars: r.chars })),
  usageCount: s.usageCount,
  lastUsedAt: s.lastUsedAt,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  ...(withBody ? { body: s.body } : {}),
});

async function ownedSkill(models: Models, userId: string, id: string): Promise<SkillDoc> {
  const s = await models.Skill.findOne({ _id: id, ownerId: userId }).lean();
  if (!s) throw new NotFoundError('skill');
  return s;
}

/** A turn request's `skills` (names or ids) → ids of the author's enabled skills; 404 for one they don't have. */
export async function namedSkillIds(models: Models, userId: string, refs: string[], cap: number): Promise<string[]> {
  const unique = [...new Set(refs)];
  if (unique.length > cap)
    throw new BadRequestError(
      'invalid request',
      { fields: [{ path: 'skills', message: `at most ${cap} skills per turn` }] },
      'validation_failed',
    );
  const { ids, missing } = await resolveNamedSkills(models, userId, unique);
  if (missing.length) throw new NotFoundError(`skill ${missing[0]!.slice(0, 100)}`);
  return ids;
}

/** The skill package in an import's body: 400 with a `skill_*` code when it is not one. */
async function skillPackageOf(body: unknown, limits: SkillImportLimits): Promise<SkillPackage> {
  if (!Buffer.isBuffer(body) || body.length === 0)
    throw new BadRequestError(
      'send the skill as a zip body (content-type application/zip)',
      undefined,
      'skill_invalid_archive',
    );
  try {
    return await readSkillZip(body, limits);
  } catch (err) {
    if (err instanceof SkillPackageError) throw new BadRequestError(err.message, undefined, err.code);
    throw err;
  }
}

/** Stores an imported package as the author's skill; one of the same name is replaced only when `replace` asks. */
async function storeSkill(models: Models, userId: string, pkg: SkillPackage, replace: boolean): Promise<SkillDoc> {
  const fields = {
    name: pkg.name,
    nameKey: pkg.name.toLowerCase(),
    description: pkg.description,
    body: pkg.body,
    manifest: pkg.manifest,
    metadata: pkg.metadata,
    resources: pkg.resources.map((x) => ({ ...x, chars: x.content.length })),
  };
  let doc: SkillDoc | null;
  try {
    const created = await models.Skill.create({ ownerId: userId, ...fields });
    doc = (await models.Skill.findById(created._id).lean())!;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const existing = await models.Skill.findOne({ ownerId: userId, nameKey: fields.nameKey }).lean();
    // Replacing a skill the author already has is their explicit choice, never a side effect.
    if (!replace || !existing)
      throw new ConflictError(`a skill named "${pkg.name}" exists; import with ?replace=true to replace it`, {
        skillId: existing ? String(existing._id) : undefined,
      });
    await models.Skill.updateOne({ _id: existing._id, ownerId: userId }, { $set: fields });
    doc = await models.Skill.findById(existing._id).lean();
  }
  return doc!;
}

export function skillsRouter(deps: AppDeps): Router {
  const r = Router();
  const { models, config } = deps;
  const limits = skillImportLimits(config);

  r.post('/skills/import', express.raw({ type: ZIP_TYPES, limit: limits.zipBytes }), async (req, res) => {
    const q = parseQuery(importSkillQuery, req.query);
    const pkg = await skillPackageOf(req.body, limits);
    const doc = await storeSkill(models, userOf(req), pkg, q.replace === 'true');
    res.status(201).json(presentSkill(doc, true));
  });

  r.get('/skills', async (req, res) => {
    parseQuery(emptyQuery, req.query);
    const items = await models.Skill.find({ ownerId: userOf(req) })
      .select({ manifest: 0, body: 0, 'resources.content': 0 })
      .sort({ nameKey: 1 })
      .limit(500)
      .lean();
    res.json({ items: items.map((s) => presentSkill(s)) });
  });

  r.get('/skills/:skillId', async (req, res) => {
    res.json(presentSkill(await ownedSkill(models, userOf(req), parseId(req.params.skillId, 'skillId')), true));
  });

  r.get('/skills/:skillId/export', async (req, res) => {
    const skill = await ownedSkill(models, userOf(req), parseId(req.params.skillId, 'skillId'));
    const zip = await writeSkillZip(
      {
        manifest: skill.manifest,
        resources: (skill.resources ?? []).map((x) => ({ path: x.path ?? '', content: x.content ?? '' })),
      },
      skill.updatedAt ?? deps.clock(),
    );
    const file = `${skill.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'skill'}.zip`;
    res
      .status(200)
      .set({ 'content-type': 'application/zip', 'content-disposition': `attachment; filename="${file}"` })
      .send(zip);
  });

  r.patch('/skills/:skillId', async (req, res) => {
    const skillId = parseId(req.params.skillId, 'skillId');
    const body = parseBody(updateSkillBody, req.body);
    const userId = userOf(req);
    const done = await models.Skill.findOneAndUpdate(
      { _id: skillId, ownerId: userId },
      { $set: { enabled: body.enabled } },
      { new: true },
    ).lean();
    if (!done) throw new NotFoundError('skill');
    res.json(presentSkill(done));
  });

  r.delete('/skills/:skillId', async (req, res) => {
    const skillId = parseId(req.params.skillId, 'skillId');
    const gone = await models.Skill.deleteOne({ _id: skillId, ownerId: userOf(req) });
    if (gone.deletedCount === 0) throw new NotFoundError('skill');
    res.status(204).end();
  });
  return r;
}
