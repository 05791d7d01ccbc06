/**
 * A streamed `<file>` body saved by its own LLM step (src/activities/step/capture.ts), when the
 * step runs more than once: the file ends with the text the last attempt streamed (what
 * the author saw), an identical retry writes nothing new, and a different one keeps the
 * earlier text as a version instead of overwriting it.
 */
import { saveCapture, stepCaptureKey } from '../../src/activities/step/capture';
import { useScratchDb } from '../helpers/scratch-db';

const db = useScratchDb('capture');

async function newFile(title: string): Promise<string> {
  return String((await db.models.File.create({ projectId: 'p', ownerId: 'u1', type: 'draft', title }))._id);
}

async function saveAttempt(fileId: string, body: string, attempt: number) {
  const c = { turnId: 't1', step: 5, agent: 'writer' as const, fileId, body };
  return saveCapture(db.models, { ...c, writeKey: await stepCaptureKey(db.models, c, attempt) });
}

const versions = async (fileId: string) =>
  (await db.models.FileVersion.find({ fileId }).sort({ version: 1 }).lean()).map((v) => v.content);

test('a rerun of the same attempt writes no second version', async () => {
  const fileId = await newFile('Chapter 1');
  const first = await saveAttempt(fileId, 'Rain on the harbour.', 1);
  const again = await saveAttempt(fileId, 'Rain on the harbour.', 1);
  expect(await versions(fileId)).toEqual(['Rain on the harbour.']);
  expect(again.outcome).toEqual(first.outcome);
  expect(first.outcome).toMatchObject({
    ok: true,
    name: 'file_stream',
    op: 'edited',
    title: 'Chapter 1',
    fileType: 'draft',
    bodyWords: 4,
  });
  expect(first.event).toMatchObject({
    type: 'file_updated',
    data: { fileId, title: 'Chapter 1', operation: 'stream', words: 4 },
  });
});

test('a retried step that streamed the same text reuses the first attempt’s version', async () => {
  const fileId = await newFile('Chapter 2');
  await saveAttempt(fileId, 'Fog.', 1);
  await saveAttempt(fileId, 'Fog.', 2);
  expect(await versions(fileId)).toEqual(['Fog.']);
});

test('a retried step that streamed other text adds its own version; the file shows it and keeps the first', async () => {
  const fileId = await newFile('Chapter 3');
  await saveAttempt(fileId, 'First take.', 1);
  await saveAttempt(fileId, 'Second take.', 2);
  await saveAttempt(fileId, 'Second take.', 3);
  expect(await versions(fileId)).toEqual(['First take.', 'Second take.']);
  expect((await db.models.File.findById(fileId).lean())!.content).toBe('Second take.');
});

test('a file gone (or in the trash) before the save is not written: the step says so instead of failing', async () => {
  const fileId = await newFile('Chapter 4');
  await db.models.File.deleteOne({ _id: fileId });
  expect((await saveAttempt(fileId, 'Lost?', 1)).outcome).toMatchObject({ ok: false, errorType: 'file_deleted' });
  expect(await versions(fileId)).toEqual([]);
  const trashed = await newFile('Chapter 4b');
  await db.models.File.updateOne({ _id: trashed }, { $set: { deletedAt: new Date() } });
  expect((await saveAttempt(trashed, 'Into the trash?', 1)).outcome).toMatchObject({
    ok: false,
    errorType: 'file_deleted',
  });
  expect(await versions(trashed)).toEqual([]);
});

test('a retry whose version is on record but whose file is gone says so, writing nothing new', async () => {
  const fileId = await newFile('Chapter 5');
  await saveAttempt(fileId, 'Salt wind.', 1);
  await db.models.File.deleteOne({ _id: fileId });
  expect((await saveAttempt(fileId, 'Salt wind.', 1)).outcome).toMatchObject({ ok: false, errorType: 'file_deleted' });
  expect(await versions(fileId)).toEqual(['Salt wind.']);
});

test('a save reads the file once: the write’s own read gives its title and type', async () => {
  const fileId = await newFile('Chapter 6');
  const reads = jest.spyOn(db.models.File, 'findById');
  try {
    const saved = await saveAttempt(fileId, 'Low tide.', 1);
    expect(saved.event).toMatchObject({ data: { fileId, title: 'Chapter 6', fileType: 'draft' } });
    expect(reads).toHaveBeenCalledTimes(1);
  } finally {
    reads.mockRestore();
  }
});
