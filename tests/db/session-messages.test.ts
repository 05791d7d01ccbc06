/**
 * The session's latest messages read once at the start of a turn (src/activities/turn/session-messages.ts)
 * answer exactly what the separate reads answered, and say so when they cannot: a reply older
 * than the messages read is still found, by the reader's own query.
 */
import { routerUserMessage } from '../../src/activities/turn/router-input';
import {
  AUTHOR_REQUESTS,
  HISTORY_MESSAGES,
  historyBefore,
  latestAuthorMessages,
  latestAuthorRequests,
  latestReply,
  OPENING_MESSAGES,
  openingReads,
  previousTurnId,
  readSessionMessages,
  SEQ_WINDOW,
} from '../../src/activities/turn/session-messages';
import { newId } from '../../src/db/models';
import { useScratchDb } from '../helpers/scratch-db';

const db = useScratchDb('session_messages');

async function sessionWith(messages: { role: 'user' | 'assistant'; turnId: string; content: string }[]) {
  const projectId = await db.newProject();
  const sessionId = newId();
  await db.models.Message.insertMany(
    messages.map((m, i) => ({ ...m, sessionId, projectId, seq: i + 1, key: `${sessionId}:${i + 1}` })),
  );
  return { projectId, sessionId };
}

test('a short session is read whole: the answers are final, and absent means absent', async () => {
  const [t1, t2] = [newId(), newId()];
  const { sessionId } = await sessionWith([
    { role: 'user', turnId: t1, content: 'Write chapter 1' },
    { role: 'assistant', turnId: t1, content: 'Done.' },
    { role: 'user', turnId: t2, content: 'Now chapter 2' },
  ]);
  const read = await readSessionMessages(db.models, sessionId);
  expect(read.complete).toBe(true);
  expect(historyBefore(read, t2)!.map((m) => m.content)).toEqual(['Done.', 'Write chapter 1']);
  expect(latestAuthorMessages(read, 20)!.map((m) => m.content)).toEqual(['Now chapter 2', 'Write chapter 1']);
  expect(latestReply(read, (m) => m.turnId === t1)!.content).toBe('Done.');
  expect(latestReply(read, (m) => m.turnId === t2)).toBeUndefined();
  // The turn before t2 is t1; before t1 there is none.
  expect(previousTurnId(read, t2)).toBe(t1);
  const first = await readSessionMessages(
    db.models,
    (await sessionWith([{ role: 'user', turnId: t1, content: 'Hello' }])).sessionId,
  );
  expect(previousTurnId(first, t1)).toBeUndefined();
  expect(previousTurnId({ docs: first.docs, complete: false, latestSeq: 0 }, t1)).toBeNull();
});

test('a long session is read up to its limit: what lies beyond is "cannot tell", and the router still finds the old reply', async () => {
  const old = newId();
  const current = newId();
  const authorTurns = Array.from({ length: HISTORY_MESSAGES + 29 }, (_, i) => ({
    role: 'user' as const,
    turnId: newId(),
    content: `request ${i + 1}`,
  }));
  const { sessionId, projectId } = await sessionWith([
    { role: 'user', turnId: old, content: 'Start the book' },
    { role: 'assistant', turnId: old, content: 'The outline is ready. Shall I write chapter 1?' },
    ...authorTurns,
    { role: 'user', turnId: current, content: 'Go on' },
  ]);
  const read = await readSessionMessages(db.models, sessionId);
  expect(read.complete).toBe(false);
  expect(read.docs).toHaveLength(HISTORY_MESSAGES + 1);
  // The history is the 200 latest messages before this turn, as the separate query gave them.
  const separate = await db.models.Message.find({ sessionId, turnId: { $ne: current } })
    .sort({ seq: -1 })
    .limit(HISTORY_MESSAGES)
    .lean();
  expect(historyBefore(read, current)!.map((m) => m.seq)).toEqual(separate.map((m) => m.seq));
  expect(latestAuthorMessages(read, 20)!.map((m) => m.content)[1]).toBe(`request ${HISTORY_MESSAGES + 29}`);
  // The only reply is older than everything read.
  expect(latestReply(read, (m) => m.turnId !== current)).toBeNull();
  const turn = { _id: current, sessionId, projectId, ownerId: 'u1', jobId: null, message: 'Go on' };
  const message = await routerUserMessage(db.models, turn, Promise.resolve(read));
  expect(message).toContain('The outline is ready. Shall I write chapter 1?');
  expect(message.endsWith('[user message]\nGo on')).toBe(true);
});

test('a long session is read by its latest sequence numbers, exactly as the whole read, even with unused numbers', async () => {
  const projectId = await db.newProject();
  const all = (sessionId: string) =>
    db.models.Message.find({ sessionId })
      .sort({ seq: -1 })
      .limit(HISTORY_MESSAGES + 1)
      .lean();
  /** A session whose messages have these sequence numbers, its counter at the highest. */
  async function session(seqs: number[]) {
    const session = await db.models.Session.create({
      projectId,
      ownerId: 'u1',
      title: 'Long',
      messageSeq: Math.max(...seqs),
    });
    const sessionId = String(session._id);
    await db.models.Message.insertMany(
      seqs.map((seq) => ({
        sessionId,
        projectId,
        turnId: newId(),
        role: 'user',
        content: `m${seq}`,
        seq,
        key: `${sessionId}:${seq}`,
      })),
    );
    return sessionId;
  }
  const spy = jest.spyOn(db.models.Message, 'find');
  try {
    // A few unused numbers: the window still holds the 201 latest, read in one query.
    const few = await session(Array.from({ length: 400 }, (_, i) => i + 1).filter((seq) => seq % 50 !== 0));
    spy.mockClear();
    const read = await readSessionMessages(db.models, few);
    expect(spy).toHaveBeenCalledTimes(1);
    expect((spy.mock.calls[0] as unknown[])[0]).toMatchObject({ sessionId: few, seq: { $gt: 399 - SEQ_WINDOW } });
    expect(read.complete).toBe(false);
    expect(read.docs.map((m) => m.seq)).toEqual((await all(few)).map((m) => m.seq));

    // Many unused numbers (fewer messages in the window than wanted): read the whole session, still exact.
    const sparse = await session(Array.from({ length: 300 }, (_, i) => (i + 1) * 3));
    spy.mockClear();
    const sparseRead = await readSessionMessages(db.models, sparse);
    expect(spy).toHaveBeenCalledTimes(2);
    expect(sparseRead.docs).toHaveLength(HISTORY_MESSAGES + 1);
    expect(sparseRead.docs.map((m) => m.seq)).toEqual((await all(sparse)).map((m) => m.seq));
  } finally {
    spy.mockRestore();
  }
});

test('the turn\'s opening read takes only the latest few messages: the previous turn and its reply are there, what lies beyond is "cannot tell"', async () => {
  const projectId = await db.newProject();
  const session = await db.models.Session.create({ projectId, ownerId: 'u1', title: 'Long', messageSeq: 0 });
  const sessionId = String(session._id);
  // 150 turns of one request and two replies each, then this turn's request.
  const turns = Array.from({ length: 150 }, () => newId());
  const current = newId();
  const messages = [
    ...turns.flatMap((turnId, i) => [
      { role: 'user', turnId, content: `request ${i + 1}` },
      { role: 'assistant', turnId, content: `planned ${i + 1}` },
      { role: 'assistant', turnId, content: `wrote ${i + 1}` },
    ]),
    { role: 'user', turnId: current, content: 'Go on' },
  ];
  await db.models.Message.insertMany(
    messages.map((m, i) => ({ ...m, sessionId, projectId, seq: i + 1, key: `${sessionId}:${i + 1}` })),
  );
  await db.models.Session.updateOne({ _id: sessionId }, { $set: { messageSeq: messages.length } });
  const spy = jest.spyOn(db.models.Message, 'find');
  try {
    const read = await readSessionMessages(db.models, sessionId, OPENING_MESSAGES);
    // One query over the latest sequence numbers only, so the server decodes a few dozen messages, not the 201 of the history.
    expect(spy).toHaveBeenCalledTimes(1);
    expect((spy.mock.calls[0] as unknown[])[0]).toMatchObject({
      sessionId,
      seq: { $gt: messages.length - OPENING_MESSAGES - 20 },
    });
    expect(read.complete).toBe(false);
    expect(read.docs.map((m) => m.seq)).toEqual(
      Array.from({ length: OPENING_MESSAGES }, (_, i) => messages.length - i),
    );
  } finally {
    spy.mockRestore();
  }
  const read = await readSessionMessages(db.models, sessionId, OPENING_MESSAGES);
  expect(previousTurnId(read, current)).toBe(turns[149]);
  expect(latestReply(read, (m) => m.turnId === turns[149])!.content).toBe('wrote 150');
  // Twenty requests need sixty messages: the opening read cannot tell, so prepareTurn asks
  // MongoDB itself, again by the latest sequence numbers first.
  expect(latestAuthorMessages(read, 20)).toBeNull();
  const find = jest.spyOn(db.models.Message, 'find');
  try {
    const requests = await latestAuthorRequests(db.models, sessionId, read, 20);
    expect(requests.map((m) => m.content)).toEqual([
      'Go on',
      ...Array.from({ length: 19 }, (_, i) => `request ${150 - i}`),
    ]);
    expect(find).toHaveBeenCalledTimes(1);
    expect((find.mock.calls[0] as unknown[])[0]).toMatchObject({
      sessionId,
      role: 'user',
      seq: { $gt: messages.length - 20 * 5 - 20 },
    });
    // Requests further apart than the window (nine replies each): the whole session is asked, still exact.
    const chatty = newId();
    const chattyMessages = Array.from({ length: 300 }, (_, i) => ({
      role: i % 10 === 0 ? 'user' : 'assistant',
      turnId: `t${Math.floor(i / 10)}`,
      content: `m${i + 1}`,
    }));
    await db.models.Message.insertMany(
      chattyMessages.map((m, i) => ({ ...m, sessionId: chatty, projectId, seq: i + 1, key: `${chatty}:${i + 1}` })),
    );
    const chattyRead = { docs: [], complete: false, latestSeq: 300 };
    find.mockClear();
    const sparse = await latestAuthorRequests(db.models, chatty, chattyRead, 20);
    expect(find).toHaveBeenCalledTimes(2);
    expect(sparse.map((m) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 291 - i * 10));
  } finally {
    find.mockRestore();
  }
  // The history is not the opening read's to give.
  expect(historyBefore(read, current)).toBeNull();
});

test("a long session's opening reads ask for the author's requests beside the latest messages, not after them; a short one's come from the latest messages", async () => {
  const projectId = await db.newProject();
  const session = await db.models.Session.create({ projectId, ownerId: 'u1', title: 'Long', messageSeq: 0 });
  const sessionId = String(session._id);
  const turns = Array.from({ length: 40 }, () => newId());
  const messages = turns.flatMap((turnId, i) => [
    { role: 'user', turnId, content: `request ${i + 1}` },
    { role: 'assistant', turnId, content: `reply ${i + 1}` },
  ]);
  await db.models.Message.insertMany(
    messages.map((m, i) => ({ ...m, sessionId, projectId, seq: i + 1, key: `${sessionId}:${i + 1}` })),
  );
  await db.models.Session.updateOne({ _id: sessionId }, { $set: { messageSeq: messages.length } });
  // The latest-messages read never answers: the requests must not wait for it.
  const never = {
    sort: () => never,
    limit: () => never,
    batchSize: () => never,
    lean: () => new Promise(() => undefined),
  };
  const held = {
    ...db.models,
    Message: { find: (filter: { role?: string }) => (filter.role ? db.models.Message.find(filter) : never) },
  } as unknown as typeof db.models;
  const requests = await openingReads(held, sessionId).requests;
  expect(requests.map((m) => m.content)).toEqual(
    Array.from({ length: AUTHOR_REQUESTS }, (_, i) => `request ${40 - i}`),
  );

  const short = (
    await sessionWith([
      { role: 'user', turnId: turns[0]!, content: 'Write chapter 1' },
      { role: 'assistant', turnId: turns[0]!, content: 'Done.' },
      { role: 'user', turnId: turns[1]!, content: 'Now chapter 2' },
    ])
  ).sessionId;
  const find = jest.spyOn(db.models.Message, 'find');
  try {
    const opening = openingReads(db.models, short);
    expect((await opening.requests).map((m) => m.content)).toEqual(['Now chapter 2', 'Write chapter 1']);
    expect((await opening.recent).complete).toBe(true);
    expect(find).toHaveBeenCalledTimes(1);
  } finally {
    find.mockRestore();
  }
});
