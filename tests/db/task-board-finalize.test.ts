/**
 * The task board at turn end, called by finalizeTurn with its own read of the turn
 * (src/activities/turn/task-board.ts): a job's chapter turn leaves the board to its job, an
 * author's turn closes the task its written file completes, and neither reads the turn again.
 */
import { finalizeTaskBoard } from '../../src/activities/turn/task-board';
import { writeVersion } from '../../src/db/file-store';
import { useScratchDb } from '../helpers/scratch-db';

const db = useScratchDb('task-board');

/** A project whose board has chapter 1 in progress, and chapter 1 written by turn `turnId`. */
async function chapterWritten(turnId: string): Promise<string> {
  const projectId = await db.newProject();
  await db.models.Project.updateOne(
    { _id: projectId },
    { $set: { tasks: [{ id: 'c1', title: 'Chapter 1', status: 'in_progress' }] } },
  );
  const fileId = String(
    (await db.models.File.create({ projectId, ownerId: 'u1', type: 'draft', title: 'Chapter 1' }))._id,
  );
  await writeVersion(db.models, fileId, 'The tide came in.', {
    author: 'ai',
    agent: 'writer',
    turnId,
    operation: 'create',
    writeKey: `${turnId}:1:c`,
  });
  return projectId;
}

const status = async (projectId: string) => (await db.models.Project.findById(projectId).lean())!.tasks[0]!.status;

test('an author’s turn closes the task its file completes, without reading the turn again', async () => {
  const projectId = await chapterWritten('t-author');
  const turnReads = jest.spyOn(db.models.Turn, 'findById');
  try {
    await finalizeTaskBoard(db.models, { turnId: 't-author', projectId, jobId: null });
    expect(turnReads).not.toHaveBeenCalled();
  } finally {
    turnReads.mockRestore();
  }
  expect(await status(projectId)).toBe('done');
});

test('a job’s chapter turn leaves the board to its job', async () => {
  const projectId = await chapterWritten('t-job');
  await finalizeTaskBoard(db.models, { turnId: 't-job', projectId, jobId: 'j1' });
  expect(await status(projectId)).toBe('in_progress');
});
