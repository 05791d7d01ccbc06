/**
 * prepareTurn's reads of the previous turn and of the author's earlier requests share one time
 * budget: a slow read costs the turn at most the budget, the turn goes on without what it did
 * not get, and the Turn's record says so. Reads that arrive in time leave no note.
 */
import type { ActivityDeps } from '../../src/activities/deps';
import { createTurnLifecycleActivities } from '../../src/activities/turn/turn-lifecycle';
import { createWorkerCaches } from '../../src/activities/worker-caches';
import { loadConfig } from '../../src/config';
import { newId } from '../../src/db/models';
import { useScratchDb } from '../helpers/scratch-db';

/** No big reads started in the background: only the preparation's own reads are timed. */
const NO_PREFETCH = { context: false, router: false };
/** How long the slow read is held: far past the budget. */
const STALL_MS = 3000;

const db = useScratchDb('prepare_budget');

/** A session whose previous turn asked a question, after a request with a length; and a new turn in it. */
async function sessionWithPreviousTurn() {
  const projectId = String((await db.models.Project.create({ ownerId: 'u1', title: 'P', type: 'novel' }))._id);
  const sessionId = newId();
  const base = { sessionId, projectId, ownerId: 'u1' };
  const earlier = String(
    (
      await db.models.Turn.create({
        ...base,
        message: 'Write chapter 1',
        workflowId: 'turn-1',
        status: 'awaiting_author',
      })
    )._id,
  );
  const said = [
    { role: 'user', content: 'Write chapter 1, about 3000 words', key: `${earlier}:user` },
    { role: 'assistant', content: 'Chapter 1 is done. Shall I go on?', key: `${earlier}:run:1` },
  ];
  for (const [i, m] of said.entries()) await db.models.Message.create({ ...base, ...m, turnId: earlier, seq: i + 1 });
  const turnId = String((await db.models.Turn.create({ ...base, message: 'Yes, go on', workflowId: 'turn-2' }))._id);
  return { projectId, sessionId, turnId };
}

/**
 * prepareTurn with the read of the previous turn held at its fault point until `release` (at
 * the latest after STALL_MS, so a preparation that waited for it ends, and is seen to be slow).
 */
function prepareWithStall() {
  let release = (): void => undefined;
  const stall = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, STALL_MS);
    release = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  const { prepareTurn } = createTurnLifecycleActivities({
    models: db.models,
    config: { ...loadConfig(), ROUTER_STRATEGY: 'off' },
    caches: createWorkerCaches(),
    faults: {
      hit: () => undefined,
      pause: (point: string) => (point === 'turn.prepare.previous' ? stall : Promise.resolve()),
    },
  } as unknown as ActivityDeps);
  return { prepareTurn, release };
}

/** The production budget (the test harness raises it for the other suites). */
const PREPARATION_READ_BUDGET_MS = loadConfig().PREPARATION_READ_BUDGET_MS;

test('a slow read of the previous turn costs the turn at most the budget, and its record says so', async () => {
  const { projectId, sessionId, turnId } = await sessionWithPreviousTurn();
  const { prepareTurn, release } = prepareWithStall();
  const started = performance.now();
  const prepared = await prepareTurn({ prefetch: NO_PREFETCH, turnId, sessionId, projectId }).finally(release);
  const took = performance.now() - started;
  expect(took).toBeGreaterThanOrEqual(PREPARATION_READ_BUDGET_MS - 5);
  // Cut at the budget, not at the stall's end (a loaded machine adds its own time to the budget).
  expect(took).toBeLessThan(STALL_MS - 1000);
  // The unread previous turn counts as absent; what the other read got in time is kept.
  expect(prepared.previous).toBeNull();
  expect(prepared.lengthRequirements.join(' ')).toContain('3000');
  expect(prepared.prepNotes).toEqual([expect.stringMatching(/^previous turn not read within the 500 ms/)]);
  const record = await db.models.Turn.findById(turnId).lean();
  expect(record!.prepNotes).toEqual(prepared.prepNotes);
});

test('reads that arrive within the budget leave no note', async () => {
  const { projectId, sessionId, turnId } = await sessionWithPreviousTurn();
  const { prepareTurn, release } = prepareWithStall();
  release();
  const prepared = await prepareTurn({ prefetch: NO_PREFETCH, turnId, sessionId, projectId });
  expect(prepared.previous).toMatchObject({ status: 'awaiting_author', askedQuestion: true });
  expect(prepared.prepNotes).toBeUndefined();
  expect((await db.models.Turn.findById(turnId).lean())!.prepNotes).toEqual([]);
});
