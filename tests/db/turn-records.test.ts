/**
 * Opening a turn's records (src/db/turn-records.ts) is idempotent for a turn id: a job's
 * openJobTurn retried after a crash finds the Turn and the author's message it wrote, by the
 * message's derived `_id`, and neither writes them again nor takes another sequence number.
 */
import { createTurnRecords } from '../../src/db/turn-records';
import { newId } from '../../src/db/models';
import { beforeCalls, sleep } from '../helpers/model-spies';
import { useScratchDb } from '../helpers/scratch-db';

const db = useScratchDb('turn_records');

test('opening the same turn twice leaves one Turn, one author message and one sequence number', async () => {
  const projectId = await db.newProject();
  const session = await db.models.Session.create({ projectId, ownerId: 'u1' });
  const sessionId = String(session._id);
  const turnId = newId();
  const open = () =>
    createTurnRecords(db.models, {
      turnId,
      sessionId,
      projectId,
      ownerId: 'u1',
      message: 'Write chapter 2',
      jobId: 'job-1',
    });
  // The number goes to the turn's first reads (TurnInput.openingSeq); a retry took none.
  expect(await open()).toEqual({ seq: 1 });
  expect(await open()).toEqual({ seq: null });
  expect(await db.models.Turn.countDocuments({ _id: turnId })).toBe(1);
  const messages = await db.models.Message.find({ sessionId }).lean();
  expect(messages.map((m) => [m.role, m.content, m.seq])).toEqual([['user', 'Write chapter 2', 1]]);
  expect((await db.models.Session.findById(sessionId).lean())!.messageSeq).toBe(1);
  // The next turn's message follows it.
  await createTurnRecords(db.models, {
    turnId: newId(),
    sessionId,
    projectId,
    ownerId: 'u1',
    message: 'Write chapter 3',
  });
  expect((await db.models.Message.find({ sessionId }).sort({ seq: 1 }).lean()).map((m) => m.seq)).toEqual([1, 2]);
});

test('a new turn reserves its sequence number while its Turn is created, and does not look for an earlier attempt', async () => {
  const projectId = await db.newProject();
  const session = await db.models.Session.create({ projectId, ownerId: 'u1' });
  const sessionId = String(session._id);
  await createTurnRecords(
    db.models,
    { turnId: newId(), sessionId, projectId, ownerId: 'u1', message: 'Write chapter 1' },
    { newTurn: true },
  );
  const order: string[] = [];
  // The Turn's insert is slow: a number reserved after it would come only now.
  const turnCreate = beforeCalls(db.models.Turn, 'create', async () => {
    await sleep(100);
    order.push('turn created');
  });
  const seq = beforeCalls(db.models.Session, 'findOneAndUpdate', () => {
    order.push('number reserved');
  });
  const exists = jest.spyOn(db.models.Message, 'exists');
  try {
    const turnId = newId();
    expect(
      await createTurnRecords(
        db.models,
        { turnId, sessionId, projectId, ownerId: 'u1', message: 'Write chapter 2' },
        { newTurn: true },
      ),
    ).toEqual({ seq: 2 });
    expect(order).toEqual(['number reserved', 'turn created']);
    expect(exists).not.toHaveBeenCalled();
    expect(await db.models.Turn.countDocuments({ _id: turnId })).toBe(1);
  } finally {
    turnCreate.mockRestore();
    seq.mockRestore();
    exists.mockRestore();
  }
  expect((await db.models.Message.find({ sessionId }).sort({ seq: 1 }).lean()).map((m) => [m.content, m.seq])).toEqual([
    ['Write chapter 1', 1],
    ['Write chapter 2', 2],
  ]);
});
