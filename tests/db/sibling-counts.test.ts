/**
 * A create_file call's folder count, read by its LLM step while the call streams
 * (src/activities/tools/sibling-counts.ts): the same numbers as counting the folder, taken
 * by the step's first create_file only, so a second one in the same step still counts the
 * file the first made.
 */
import { createFile } from '../../src/activities/tools/file-tools';
import { EarlySiblingCounts, readSiblingCounts } from '../../src/activities/tools/sibling-counts';
import { newId } from '../../src/db/models';
import { useScratchDb } from '../helpers/scratch-db';

const db = useScratchDb('sibling_counts');

test('one read gives every folder the count countDocuments gives it', async () => {
  const projectId = await db.newProject();
  const other = await db.newProject();
  const folder = newId();
  const file = (extra: object) => ({
    _id: newId(),
    projectId,
    ownerId: 'u1',
    type: 'draft',
    title: 'x',
    order: 0,
    ...extra,
  });
  await db.models.File.insertMany([
    file({ _id: folder, type: 'folder', parentId: null }),
    file({ parentId: null }),
    file({ parentId: null, deletedAt: new Date() }),
    file({ parentId: folder }),
    file({ parentId: folder }),
    file({ parentId: folder }),
    { ...file({}), projectId: other, parentId: null },
  ]);
  // A file stored without the field at all (older data) sits in the root too.
  await db.models.File.collection.insertOne({
    _id: newId() as never,
    projectId,
    ownerId: 'u1',
    type: 'draft',
    title: 'old',
    order: 0,
  });

  const counts = await readSiblingCounts(db.models, projectId);
  for (const parentId of [null, folder])
    expect(counts.get(parentId)).toBe(await db.models.File.countDocuments({ projectId, parentId }));
  expect(counts.get(null)).toBe(4);
  expect(counts.get(folder)).toBe(3);
  expect(counts.size).toBe(2);
});

test('a step takes the early count for its first create_file only', async () => {
  const projectId = await db.newProject();
  await db.models.File.create({
    _id: newId(),
    projectId,
    ownerId: 'u1',
    type: 'outline',
    title: 'Outline',
    order: 0,
    parentId: null,
  });
  const siblingCounts = new EarlySiblingCounts(db.models, projectId);
  siblingCounts.start();
  const counted = jest.spyOn(db.models.File, 'countDocuments');
  try {
    const turnId = newId();
    const first = await createFile(
      { ...db.plannerContext(projectId, 'Add two notes', `${turnId}:2:call_a`), siblingCounts },
      { title: 'Note A', type: 'setting', content: 'a' },
    );
    expect(counted).not.toHaveBeenCalled();
    const second = await createFile(
      { ...db.plannerContext(projectId, 'Add two notes', `${turnId}:2:call_b`), siblingCounts },
      { title: 'Note B', type: 'setting', content: 'b' },
    );
    expect(counted).toHaveBeenCalledTimes(1);
    const order = async (id: unknown) => (await db.models.File.findById(id).lean())!.order;
    expect(await order(first.outcome.fileId)).toBe(1);
    expect(await order(second.outcome.fileId)).toBe(2);
  } finally {
    counted.mockRestore();
  }
});

test('a count never started, or a failed read, leaves the call to count for itself', async () => {
  const projectId = await db.newProject();
  expect(await new EarlySiblingCounts(db.models, projectId).take(null)).toBeNull();
  const failing = new EarlySiblingCounts(
    { File: { aggregate: () => Promise.reject(new Error('down')) } } as never,
    projectId,
  );
  failing.start();
  expect(await failing.take(null)).toBeNull();
});
