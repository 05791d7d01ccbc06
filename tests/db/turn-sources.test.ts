/**
 * The context's reads started by `prepareTurn` (src/activities/context/prefetch.ts): the
 * first step takes what was read at the start of the request, once; anything later reads
 * anew, and a failed early read never fails the step.
 */
import MiniSearch from 'minisearch';
import { assembleTurnContext } from '../../src/activities/context/assembler';
import { ensureTurnContext } from '../../src/activities/context/turn-context';
import { holdsTurnSources, loadedFiles, prefetchTurnSources, turnSources } from '../../src/activities/context/prefetch';
import { rankChunks, retrievableFiles } from '../../src/activities/context/retrieval';
import { readSessionMessages } from '../../src/activities/turn/session-messages';
import { createWorkerCaches, type WorkerCaches } from '../../src/activities/worker-caches';
import { interceptQueries, sleep } from '../helpers/model-spies';
import { useScratchDb } from '../helpers/scratch-db';

const db = useScratchDb('sources');

/** Each test runs as one worker, with its own caches (its early reads, its indexes). */
let caches: WorkerCaches;
beforeEach(() => {
  caches = createWorkerCaches();
});
// Early reads nobody took are still running when a test ends: let them finish before the
// scratch database closes, or they wait out the driver's server selection on a closed client.
afterEach(() => Promise.all([caches.turnSources.settled(), caches.routerInputs.settled()]));

async function newTurn() {
  const projectId = await db.newProject();
  await db.models.File.create({
    projectId,
    ownerId: 'u1',
    type: 'draft',
    title: 'Chapter 1',
    content: 'Rain.',
    words: 1,
  });
  await db.models.Message.create({
    sessionId: 's1',
    projectId,
    turnId: 'earlier',
    role: 'user',
    content: 'Write chapter 1',
    seq: 1,
    key: `${projectId}:m1`,
  });
  const created = await db.models.Turn.create({
    sessionId: 's1',
    projectId,
    ownerId: 'u1',
    message: 'Write chapter 2',
    workflowId: 'turn-x',
  });
  // As prepareTurn has it: a plain read of the turn.
  const turn = (await db.models.Turn.findById(created._id).lean())!;
  return { projectId, turn, turnId: String(turn._id) };
}

test('the first step gets the files as they were when the turn was prepared; a later read sees the change', async () => {
  const { projectId, turn, turnId } = await newTurn();
  prefetchTurnSources(db.models, caches, turn, readSessionMessages(db.models, turn.sessionId));
  // The author adds a file while the router is answering (the early read has long finished).
  await new Promise((r) => setTimeout(r, 300));
  await db.models.File.create({
    projectId,
    ownerId: 'u1',
    type: 'draft',
    title: 'Chapter 2',
    content: 'Fog.',
    words: 1,
  });
  const turnReads = jest.spyOn(db.models.Turn, 'findById');
  try {
    const first = await turnSources(db.models, caches.turnSources, turnId);
    expect(first.rawFiles.map((f) => f.title)).toEqual(['Chapter 1']);
    expect(first.messages.map((m) => m.content)).toEqual(['Write chapter 1']);
    // The turn comes with them, as prepareTurn read it: the step does not read it again.
    expect(first.turn.message).toBe('Write chapter 2');
    expect(turnReads).not.toHaveBeenCalled();
    // Taken once: a retried step (or another turn's read) reads the turn and the project as they are now.
    const again = await turnSources(db.models, caches.turnSources, turnId);
    expect(again.rawFiles.map((f) => f.title).sort()).toEqual(['Chapter 1', 'Chapter 2']);
    expect(turnReads).toHaveBeenCalledTimes(1);
  } finally {
    turnReads.mockRestore();
  }
});

test('a step whose turn is gone fails for good', async () => {
  await expect(turnSources(db.models, caches.turnSources, '0123456789abcdef01234567')).rejects.toMatchObject({
    nonRetryable: true,
  });
});

test('without an early read (another worker prepared the turn) the step reads itself', async () => {
  const { turnId } = await newTurn();
  const sources = await turnSources(db.models, caches.turnSources, turnId);
  expect(sources.rawFiles.map((f) => f.title)).toEqual(['Chapter 1']);
});

test('the early reads build the project’s retrieval index, so the first step’s search indexes nothing', async () => {
  const { projectId, turn, turnId } = await newTurn();
  prefetchTurnSources(db.models, caches, turn, readSessionMessages(db.models, turn.sessionId));
  const sources = await turnSources(db.models, caches.turnSources, turnId);
  const files = retrievableFiles(loadedFiles(sources.rawFiles));
  const indexing = jest.spyOn(MiniSearch.prototype, 'addAll');
  try {
    expect(
      rankChunks(files, { text: 'rain', names: [] }, { indexes: caches.retrievalIndexes, key: projectId }).map(
        (c) => c.fileId,
      ),
    ).toEqual([files[0]!.id]);
    expect(indexing).not.toHaveBeenCalled();
    // A file written since is indexed by the search that sees it, and found.
    const changed = [{ ...files[0]!, content: 'Fog over the harbour.', version: files[0]!.version + 1 }];
    expect(
      rankChunks(changed, { text: 'harbour', names: [] }, { indexes: caches.retrievalIndexes, key: projectId }).map(
        (c) => c.fileId,
      ),
    ).toEqual([files[0]!.id]);
    expect(indexing).toHaveBeenCalledTimes(1);
  } finally {
    indexing.mockRestore();
  }
});

const settings = {
  contextTokens: 8000,
  historyTokens: 4000,
  ledgerCeiling: 160_000,
  workingSetMaxFiles: 4,
  workingSetMaxChars: 20_000,
};

/** Reads of a stored context answer after `ms`, noting what `probe` says then. */
const slowStoredRead = (ms: number, probe: () => boolean, seen: boolean[]) =>
  interceptQueries(db.models.TurnContext, 'findById', () => async (run) => {
    await sleep(ms);
    seen.push(probe());
    return run();
  });

test('the first step in the worker that opened the turn builds the context while it looks for a stored one', async () => {
  const { turn, turnId } = await newTurn();
  prefetchTurnSources(db.models, caches, turn, readSessionMessages(db.models, turn.sessionId));
  const startedBuilding: boolean[] = [];
  const storedRead = slowStoredRead(150, () => !holdsTurnSources(caches.turnSources, turnId), startedBuilding);
  try {
    const { context, store } = await ensureTurnContext(db.models, caches, settings, turnId, 'chapter 2');
    // The build had taken the early reads before the stored context's read answered.
    expect(startedBuilding).toEqual([true]);
    expect(context.message).toBe('Write chapter 2');
    expect(`${context.context}\n${context.contextMoving}`).toContain('Chapter 1');
    await store();
    expect(await db.models.TurnContext.countDocuments({ _id: turnId })).toBe(1);
  } finally {
    storedRead.mockRestore();
  }
});

test('a context already stored for the turn is the one the step gets, even while the worker builds one', async () => {
  const { turn, turnId } = await newTurn();
  const earlier = await assembleTurnContext(db.models, caches, settings, turnId, 'chapter 2');
  await db.models.TurnContext.create({ ...earlier, context: `${earlier.context}\n(an earlier attempt's)` });
  prefetchTurnSources(db.models, caches, turn, readSessionMessages(db.models, turn.sessionId));
  const { context, store } = await ensureTurnContext(db.models, caches, settings, turnId, 'chapter 2');
  expect(context.context).toContain("(an earlier attempt's)");
  await store();
  expect(await db.models.TurnContext.countDocuments({ _id: turnId })).toBe(1);
});

test('a step in another worker reads the stored context and builds nothing', async () => {
  const { turnId } = await newTurn();
  const earlier = await assembleTurnContext(db.models, caches, settings, turnId, 'chapter 2');
  await db.models.TurnContext.create(earlier);
  const fileReads = jest.spyOn(db.models.File, 'find');
  try {
    const { context } = await ensureTurnContext(db.models, caches, settings, turnId, 'chapter 2');
    expect(context.context).toBe(earlier.context);
    expect(fileReads).not.toHaveBeenCalled();
  } finally {
    fileReads.mockRestore();
  }
});

test('a worker opening 50 turns at once keeps every turn’s early reads for its first step', async () => {
  // A burst of turns: each is prepared before any of them reaches its first step. The early
  // reads of the first turns must still be there when their steps come (with 8 kept, 42 of 50
  // were dropped and read again on the way to the first token).
  const turns = [];
  for (let i = 0; i < 50; i++) turns.push(await newTurn());
  for (const { turn } of turns)
    prefetchTurnSources(db.models, caches, turn, readSessionMessages(db.models, turn.sessionId));
  expect(turns.filter(({ turnId }) => holdsTurnSources(caches.turnSources, turnId)).length).toBe(50);
});
