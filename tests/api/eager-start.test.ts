/**
 * Eager workflow start: when the API and the worker share a process and one
 * NativeConnection (src/main.ts with RUN_WORKER_IN_PROCESS), a turn's first workflow task
 * comes back with the start call. Apart (separate processes, as in production), the client
 * does not ask for it, which the SDK would refuse on a plain gRPC connection.
 */
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
  waitTurn,
} from '../helpers/harness';
import { router, say } from '../helpers/script';
import { startTurn } from '../../src/api/turn-starter';

let shared: Harness;
let apart: Harness;
beforeAll(async () => {
  [shared, apart] = await Promise.all([createHarness({ sharedConnection: true }), createHarness()]);
});
afterAll(async () => Promise.all([shared?.close(), apart?.close()]));
afterEach(() => [shared, apart].forEach((h) => expectScriptFullyUsed(h)));

const deps = (h: Harness, eagerStart: boolean) => ({
  config: h.config,
  models: h.runtime.models,
  redis: h.runtime.redis,
  temporal: h.runtime.temporal,
  logger: { error: () => undefined } as never,
  clock: () => new Date(),
  eagerStart,
});

async function ownerOf(h: Harness, sessionId: string): Promise<{ ownerId: string; projectId: string }> {
  const session = await h.runtime.models.Session.findById(sessionId).lean();
  return { ownerId: session!.ownerId, projectId: session!.projectId };
}

/** Starts a one-step writer turn through startTurn in a new session and waits for its outcome. */
async function planChapterOne(h: Harness, eagerStart: boolean) {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'Chapter 1 is planned.')]);
  const started = await startTurn(deps(h, eagerStart), {
    ...(await ownerOf(h, sessionId)),
    sessionId,
    message: 'Plan chapter 1',
  });
  return { sessionId, started, outcome: await waitTurn(h, started.turnId) };
}

test('with client and worker on one NativeConnection, a turn starts eagerly and runs to the end', async () => {
  const { sessionId, started, outcome } = await planChapterOne(shared, true);
  expect(started.eagerlyStarted).toBe(true);
  expect(outcome).toMatchObject({ status: 'completed', agents: ['writer'] });

  // Through the API as well (the app's deps say eagerStart): same turn shape as without it.
  shared.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    say('writer', 'Chapter 2 is planned.'),
  ]);
  const viaApi = await runTurn(shared, sessionId, 'Plan chapter 2');
  expect(viaApi.outcome).toMatchObject({ status: 'completed', agents: ['writer'] });
});

test('apart (a plain gRPC client), turns are started the usual way', async () => {
  const { started, outcome } = await planChapterOne(apart, false);
  expect(started.eagerlyStarted).toBe(false);
  expect(outcome).toMatchObject({ status: 'completed', agents: ['writer'] });
});
