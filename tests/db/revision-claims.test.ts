/**
 * The failure windows of a revision claim (src/db/revision-claims.ts), on the real
 * MongoDB-wire server: a writer that dies between claim and apply, an apply that lands late
 * over a newer revision, and a read too old to claim from.
 */
import type { Models } from '../../src/db/models';
import { readProjectState, writeProjectState } from '../../src/db/project-state';
import { PRUNE_AFTER_MS } from '../../src/db/revision-claims';
import { updateProject } from '../../src/activities/tools/project-tools';
import type { ToolContext } from '../../src/activities/tools/types';
import { useScratchDb } from '../helpers/scratch-db';

const db = useScratchDb('claims');
let models: Models;
beforeAll(() => {
  models = db.models;
});

const newProject = db.newProject;
const ctxFor = (projectId: string, authorMessage: string): ToolContext =>
  db.plannerContext(projectId, authorMessage, 't1:1:c');

test('a revision claimed by a writer that died before applying it is rolled forward, and the next write builds on it', async () => {
  const projectId = await newProject();
  // The dead writer's claim: revision 1 with its full value, never applied to the project.
  await models.RevisionClaim.create({
    _id: `Project:${projectId}:1`,
    target: `Project:${projectId}`,
    rev: 1,
    value: { summary: 'A lighthouse story', style: '', notes: '【作者确认】\n- The keeper is blind.', tasks: [] },
  });
  expect((await models.Project.findById(projectId).lean())!.summary).toBe('');

  const out = await updateProject(ctxFor(projectId, 'The sea is always grey.'), {
    notes: 'The sea is always grey.',
    author_quotes: ['The sea is always grey.'],
  });
  expect(out.body.ok).toBe(true);
  const project = (await models.Project.findById(projectId).lean())!;
  expect(project.rev).toBe(2);
  expect(project.summary).toBe('A lighthouse story');
  expect(project.notes).toContain('The keeper is blind.');
  expect(project.notes).toContain('The sea is always grey.');
});

test('an apply that lands late over a newer revision is undone: readers get the newest claim and the project is moved back to it', async () => {
  const projectId = await newProject();
  const r0 = (await readProjectState(models, projectId))!;
  expect(await writeProjectState(models, projectId, r0, { summary: 'first' })).toBe(true);
  const r1 = (await readProjectState(models, projectId))!;
  expect(await writeProjectState(models, projectId, r1, { summary: 'second' })).toBe(true);
  // FerretDB writes whole documents: revision 1's apply, computed before revision 2 landed, arriving after it.
  await models.Project.updateOne({ _id: projectId }, { $set: { summary: 'first', rev: 1 } });

  const read = (await readProjectState(models, projectId))!;
  expect(read).toMatchObject({ rev: 2, value: { summary: 'second' } });
  expect((await models.Project.findById(projectId).lean())!).toMatchObject({ rev: 2, summary: 'second' });
});

test('a read older than half the claim pruning age is not claimed from: the writer must read again', async () => {
  const projectId = await newProject();
  const read = (await readProjectState(models, projectId))!;
  const stale = { ...read, readAt: read.readAt - PRUNE_AFTER_MS };
  expect(await writeProjectState(models, projectId, stale, { summary: 'from an old read' })).toBe(false);
  expect(await models.RevisionClaim.countDocuments({ target: `Project:${projectId}` })).toBe(0);
  expect((await models.Project.findById(projectId).lean())!.summary).toBe('');
});

test('two writers from the same revision: one is saved, the other is told to read again, and nothing is written twice', async () => {
  const projectId = await newProject();
  const read = (await readProjectState(models, projectId))!;
  const [a, b] = await Promise.all([
    writeProjectState(models, projectId, read, { summary: 'a' }),
    writeProjectState(models, projectId, read, { summary: 'b' }),
  ]);
  expect([a, b].sort()).toEqual([false, true]);
  expect((await models.Project.findById(projectId).lean())!).toMatchObject({ rev: 1, summary: a ? 'a' : 'b' });
});
