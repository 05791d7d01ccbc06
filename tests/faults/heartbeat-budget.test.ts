/**
 * A worker's heartbeats share a budget (HEARTBEATS_PER_SECOND, src/activities/heartbeat.ts):
 * past it every running step beats less often, up to 2 s. On the real Temporal server, two
 * chapters streaming at once on a worker whose budget is one beat a second beat every 2 s, and
 * with a 3 s heartbeat timeout neither step is taken for dead: both chapters are written in one
 * attempt, with no `step_retry` or `step_resumed`.
 */
import {
  createHarness,
  createProjectAndSession,
  type Harness,
  postTurn,
  turnEvents,
  waitTurn,
} from '../helpers/harness';
import { call, router } from '../helpers/script';
import { turnWorkflowId } from '../../src/core/domain';
import type { ScriptEntry } from '../../src/offline-model';

jest.setTimeout(120000);
let h: Harness;

beforeAll(async () => {
  h = await createHarness({
    config: { HEARTBEATS_PER_SECOND: '1', LLM_HEARTBEAT_TIMEOUT_SECONDS: '3', REVIEW_WORD_THRESHOLD: '100000' },
  });
});
afterAll(async () => h?.close());

const prose = (place: string) =>
  Array.from({ length: 40 }, (_, i) => `At the ${place}, the ${i + 1}th lamp went out before the rain came in.`).join(
    ' ',
  );

/** One turn's script: the writer creates its chapter, then streams it for about eight seconds. */
const turnScript = (place: string): ScriptEntry[] => [
  router({ current_agent: 'writer', workflow_plan: 'quick' }),
  {
    ...call('writer', 'create_file', { type: 'draft', title: `The ${place}` }),
    match: { agent: 'writer', contains: place },
  },
  {
    match: { agent: 'writer', contains: place },
    reply: { content: `<file>\n${prose(place)}\n</file>\nSaved.` },
    tokensPerSecond: 60,
  },
];

/** The server's record of a running step's heartbeats: each new `lastHeartbeatTime` seen while it runs. */
async function heartbeatTimes(workflowId: string, until: () => boolean): Promise<number[]> {
  const seen: number[] = [];
  while (!until()) {
    const d = await h.runtime.temporal.workflow
      .getHandle(workflowId)
      .describe()
      .catch(() => null);
    for (const a of d?.raw.pendingActivities ?? []) {
      const at = a.lastHeartbeatTime;
      const ms = at ? Number(at.seconds ?? 0) * 1000 + Math.floor((at.nanos ?? 0) / 1e6) : 0;
      if (ms && !seen.includes(ms)) seen.push(ms);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}

test('two chapters streaming on a worker with a budget of one beat a second beat every 2 s, and neither is taken for dead', async () => {
  h.model.reset();
  // Routers first: both turns route before either writer asks.
  h.model.script([...turnScript('Harbor'), ...turnScript('Orchard')]);
  const a = await createProjectAndSession(h);
  const b = await createProjectAndSession(h);
  const turns = [
    await postTurn(h, a.sessionId, 'Write the Harbor chapter'),
    await postTurn(h, b.sessionId, 'Write the Orchard chapter'),
  ];
  let ended = false;
  const beats = heartbeatTimes(turnWorkflowId(turns[0]!), () => ended);
  const finished = await Promise.all(turns.map((t) => waitTurn(h, t)));
  ended = true;
  const times = await beats;

  expect(finished.map((t) => t.status)).toEqual(['completed', 'completed']);
  for (const turnId of turns) {
    const events = await turnEvents(h, turnId);
    expect(events.filter((e) => e.type === 'step_retry' || e.type === 'step_resumed')).toEqual([]);
  }
  // Each writer asked the model twice (its create_file call, its chapter): no step ran again.
  expect(h.model.requests.filter((r) => r.agent === 'writer')).toHaveLength(4);
  // While both chapters streamed, the step beat about every 2 s, not every second.
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  expect(gaps.length).toBeGreaterThanOrEqual(2);
  const sorted = [...gaps].sort((x, y) => x - y);
  expect(sorted[sorted.length >> 1]).toBeGreaterThanOrEqual(1700);
  expect(Math.max(...gaps)).toBeLessThan(3000);
});
