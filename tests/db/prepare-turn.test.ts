/**
 * prepareTurn reads the session's messages and the project beside the turn when the workflow
 * names them (turns since the change); a workflow started before it names only the turn, and
 * gets the same preparation from reads that follow the turn's.
 */
import { createTurnLifecycleActivities } from '../../src/activities/turn/turn-lifecycle';
import type { ActivityDeps } from '../../src/activities/deps';
import { createWorkerCaches } from '../../src/activities/worker-caches';
import { loadConfig } from '../../src/config';
import { newId } from '../../src/db/models';
import { useScratchDb } from '../helpers/scratch-db';

/** Both of the big reads started, as for a turn that will route and run an agent. */
const BOTH = { context: true, router: true };

const db = useScratchDb('prepare_turn');

async function preparedTwoWays(projectSummary: string) {
  const projectId = String(
    (await db.models.Project.create({ ownerId: 'u1', title: 'P', type: 'novel', summary: projectSummary }))._id,
  );
  const sessionId = newId();
  const earlier = await db.models.Turn.create({
    sessionId,
    projectId,
    ownerId: 'u1',
    message: 'Write chapter 1, about 3000 words',
    workflowId: 'turn-a',
    status: 'awaiting_author',
  });
  await db.models.Message.create({
    sessionId,
    projectId,
    turnId: String(earlier._id),
    role: 'user',
    content: 'Write chapter 1, about 3000 words',
    seq: 1,
    key: `${String(earlier._id)}:user`,
  });
  await db.models.Message.create({
    sessionId,
    projectId,
    turnId: String(earlier._id),
    role: 'assistant',
    content: 'Chapter 1 is done. Shall I go on?',
    seq: 2,
    key: `${String(earlier._id)}:run:1`,
  });
  const turn = await db.models.Turn.create({
    sessionId,
    projectId,
    ownerId: 'u1',
    message: 'Yes, go on',
    workflowId: 'turn-b',
  });
  const turnId = String(turn._id);
  const { prepareTurn } = createTurnLifecycleActivities({
    models: db.models,
    config: { ...loadConfig(), ROUTER_STRATEGY: 'off' },
    caches: createWorkerCaches(),
  } as unknown as ActivityDeps);
  return {
    named: await prepareTurn({ prefetch: BOTH, turnId, sessionId, projectId }),
    legacy: await prepareTurn({ prefetch: BOTH, turnId }),
  };
}

test('a turn prepared with its session and project named is prepared as one named by its id alone', async () => {
  const { named, legacy } = await preparedTwoWays('A novella of 40,000 words');
  expect(named).toEqual(legacy);
  // What the reads gave: the previous turn's question, the author's earlier length and the project's.
  expect(named.previous).toMatchObject({ status: 'awaiting_author', askedQuestion: true });
  expect(named.lengthRequirements.join(' ')).toContain('3000');
  expect(named.lengthRequirements.join(' ')).toMatch(/40,?000/);
});

test('a project that is gone is reported either way', async () => {
  const projectId = newId();
  const turn = await db.models.Turn.create({
    sessionId: newId(),
    projectId,
    ownerId: 'u1',
    message: 'Hello there',
    workflowId: 'turn-c',
  });
  const { prepareTurn } = createTurnLifecycleActivities({
    models: db.models,
    config: { ...loadConfig(), ROUTER_STRATEGY: 'off' },
    caches: createWorkerCaches(),
  } as unknown as ActivityDeps);
  await expect(
    prepareTurn({ prefetch: BOTH, turnId: String(turn._id), sessionId: String(turn.sessionId), projectId }),
  ).rejects.toThrow(/project .* not found/);
  await expect(prepareTurn({ prefetch: BOTH, turnId: String(turn._id) })).rejects.toThrow(/project .* not found/);
});

/** A session of `turns` earlier turns (an author's request and a reply each), and a new turn opened in it. */
async function longSession(turns: number) {
  const projectId = String(
    (await db.models.Project.create({ ownerId: 'u1', title: 'P', type: 'novel', summary: 'A long book' }))._id,
  );
  const sessionId = String(
    (await db.models.Session.create({ projectId, ownerId: 'u1', messageSeq: 2 * turns + 1 }))._id,
  );
  for (let i = 1; i <= turns; i++) {
    const t = String(
      (
        await db.models.Turn.create({
          sessionId,
          projectId,
          ownerId: 'u1',
          message: `Write chapter ${i}`,
          workflowId: `turn-l${i}`,
          status: 'completed',
        })
      )._id,
    );
    await db.models.Message.create({
      sessionId,
      projectId,
      turnId: t,
      role: 'user',
      content: i === 1 ? 'Write chapter 1, about 3000 words' : `Write chapter ${i}`,
      seq: 2 * i - 1,
      key: `${t}:user`,
    });
    await db.models.Message.create({
      sessionId,
      projectId,
      turnId: t,
      role: 'assistant',
      content: `Chapter ${i} is done.${i === turns ? ' Shall I go on?' : ''}`,
      seq: 2 * i,
      key: `${t}:run:1`,
    });
  }
  const turnId = String(
    (
      await db.models.Turn.create({
        sessionId,
        projectId,
        ownerId: 'u1',
        message: 'Yes, go on',
        workflowId: 'turn-new',
      })
    )._id,
  );
  await db.models.Message.create({
    sessionId,
    projectId,
    turnId,
    role: 'user',
    content: 'Yes, go on',
    seq: 2 * turns + 1,
    key: `${turnId}:user`,
  });
  const { prepareTurn } = createTurnLifecycleActivities({
    models: db.models,
    config: { ...loadConfig(), ROUTER_STRATEGY: 'off' },
    caches: createWorkerCaches(),
  } as unknown as ActivityDeps);
  return { projectId, sessionId, turnId, openingSeq: 2 * turns + 1, prepareTurn };
}

test('a turn that names its message’s sequence number reads from it, not from the session’s counter, and is prepared the same', async () => {
  // Longer than the opening read (24 messages): the windowed reads are the ones that take the number.
  const { projectId, sessionId, turnId, openingSeq, prepareTurn } = await longSession(15);
  const counterReads = jest.spyOn(db.models.Session, 'findById');
  try {
    const named = await prepareTurn({ prefetch: BOTH, turnId, sessionId, projectId, openingSeq });
    expect(counterReads).not.toHaveBeenCalled();
    const unnamed = await prepareTurn({ prefetch: BOTH, turnId, sessionId, projectId });
    expect(counterReads).toHaveBeenCalled();
    expect(named).toEqual(unnamed);
    expect(named.previous).toMatchObject({ status: 'completed', askedQuestion: true });
    expect(named.lengthRequirements.join(' ')).toContain('3000');
  } finally {
    counterReads.mockRestore();
  }
});

test('a sequence number below the session’s latest widens the reads and hides no newer message', async () => {
  const { projectId, sessionId, turnId, openingSeq, prepareTurn } = await longSession(15);
  const exact = await prepareTurn({ prefetch: BOTH, turnId, sessionId, projectId, openingSeq });
  // The previous turn's reply (the question) and the oldest request (the length) are still found.
  for (const low of [openingSeq - 3, 20, 1])
    expect(await prepareTurn({ prefetch: BOTH, turnId, sessionId, projectId, openingSeq: low })).toEqual(exact);
  expect(exact.previous).toMatchObject({ askedQuestion: true, question: expect.stringContaining('go on') });
});
