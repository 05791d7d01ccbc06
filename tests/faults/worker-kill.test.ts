/**
 * Crash safety with real process kills. The worker runs as a child process and SIGKILLs
 * itself at an exact fault point (src/activities/faults.ts); a fresh worker is started
 * and the turn must finish with exactly the files a clean run writes, while an SSE client
 * that stayed connected sees the interrupted step go on from its text (`step_resumed`; or
 * start over with `step_retry` when it had streamed nothing) and every other event exactly
 * once, in order, ending with the clean run's text.
 *
 * The offline model's default persona drives the turn (deterministic, and it answers a
 * retried request the same way), on a standard plan: planner writes the outline in a
 * `<file>` block → continuation round → planned handoff to the writer → chapter in a
 * `<file>` block → continuation round.
 */
import { createHarness, createProjectAndSession, type Harness, postTurn, waitTurn } from '../helpers/harness';
import { readSse, type SseFrame } from '../helpers/sse-client';
import { spawnWorker, type WorkerProcess } from '../helpers/worker-process';
import type { FaultRule } from '../../src/shared/faults';
import type { StreamEvent } from '../../src/core/events';

const MESSAGE = 'Outline the novel and write chapter 1';
const DELTAS = new Set(['content', 'file_content', 'thinking']);
let h: Harness;
let worker: WorkerProcess | null = null;

beforeAll(async () => {
  h = await createHarness({
    noWorker: true,
    config: {
      LLM_HEARTBEAT_TIMEOUT_SECONDS: '2',
      STORE_HEARTBEAT_TIMEOUT_SECONDS: '2',
      REVIEW_WORD_THRESHOLD: '100000',
    },
  });
});
afterEach(async () => {
  await worker?.kill();
  worker = null;
});
afterAll(async () => h?.close());

interface RunResult {
  frames: SseFrame[];
  events: StreamEvent[];
  files: { title: string; type: string; versions: string[] }[];
  /** The chat messages on record (what a reload shows), agent and text. */
  chat: string[];
  killedAt: number | null;
  /** When the replacement worker process was up (its boot is not the recovery a live fleet sees). */
  replacementUpAt: number | null;
  firstEventAfterKill: number | null;
}

async function runWithFault(fault: FaultRule | null): Promise<RunResult> {
  h.model.reset();
  const { sessionId, projectId } = await createProjectAndSession(h);
  worker = await spawnWorker(h, fault ? { TEST_FAULTS: JSON.stringify([fault]) } : {});
  const turnId = await postTurn(h, sessionId, MESSAGE);
  let killedAt: number | null = null;
  let replacementUpAt: number | null = null;
  let firstEventAfterKill: number | null = null;
  const sse = readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`, {
    timeoutMs: 90000,
    onFrame: () => {
      if (killedAt !== null && firstEventAfterKill === null) firstEventAfterKill = Date.now();
    },
  });
  if (fault) {
    const dead = worker.proc;
    await new Promise<void>((resolve) =>
      dead.exitCode !== null || dead.signalCode !== null ? resolve() : dead.once('exit', () => resolve()),
    );
    killedAt = Date.now();
    expect(worker.output()).toContain(`FAULT ${fault.point}`);
    worker = await spawnWorker(h);
    replacementUpAt = Date.now();
  }
  const result = await sse;
  await waitTurn(h, turnId);
  const fileDocs = await h.runtime.models.File.find({ projectId }).sort({ type: 1, title: 1 }).lean();
  const files = [];
  for (const f of fileDocs) {
    const versions = await h.runtime.models.FileVersion.find({ fileId: String(f._id) })
      .sort({ version: 1 })
      .lean();
    files.push({ title: f.title, type: f.type, versions: versions.map((v) => v.content) });
  }
  const messages = await h.runtime.models.Message.find({ turnId, role: 'assistant' }).sort({ seq: 1 }).lean();
  const chat = messages.map((m) => `${m.agent ?? ''}: ${m.content}`);
  await worker.kill();
  worker = null;
  return {
    chat,
    frames: result.frames,
    events: result.frames.map((f) => JSON.parse(f.data) as StreamEvent),
    files,
    killedAt,
    replacementUpAt,
    firstEventAfterKill,
  };
}

/**
 * What a client ends up showing, built the way a client builds it: deltas accumulate per
 * step, `step_resumed` keeps them (the step goes on from them), and `step_retry` discards
 * what that step streamed so far. Non-delta events are kept as a sequence of (type, agent,
 * step, identifying datum).
 */
function shape(events: StreamEvent[]): { sequence: string[]; text: Record<string, string> } {
  const sequence: string[] = [];
  const text: Record<string, string> = {};
  for (const e of events) {
    if (e.type === 'step_resumed') continue;
    if (e.type === 'step_retry') {
      for (const key of Object.keys(text)) if (key.startsWith(`${e.step}:`)) delete text[key];
      continue;
    }
    if (DELTAS.has(e.type)) {
      const key = `${e.step}:${e.type}`;
      text[key] = (text[key] ?? '') + (e.data as { delta: string }).delta;
      continue;
    }
    const d = e.data as Record<string, unknown>;
    sequence.push(
      [e.type, e.agent ?? '', e.step ?? '', d.name ?? d.to ?? d.reason ?? d.title ?? d.status ?? ''].join('|'),
    );
  }
  return { sequence, text };
}

function expectExactlyOnceInOrder(frames: SseFrame[]): void {
  const ids = frames.map((f) => f.id!);
  expect(new Set(ids).size).toBe(ids.length);
  const num = (id: string) => id.split('-').map(Number) as [number, number];
  for (let i = 1; i < ids.length; i++) {
    const [a, b] = [num(ids[i - 1]!), num(ids[i]!)];
    expect(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])).toBe(true);
  }
}

let clean: RunResult;
const recovery: Record<string, { fromKill: number; fromReplacementUp: number }> = {};

test('clean run (reference)', async () => {
  clean = await runWithFault(null);
  expect(clean.events[clean.events.length - 1]!.type).toBe('done');
  expect(clean.files.map((f) => [f.type, f.versions.length])).toEqual([
    ['draft', 1],
    ['outline', 1],
  ]);
  expect(clean.events.some((e) => e.type === 'step_retry')).toBe(false);
}, 120000);

/** How the interrupted step comes back on the stream: goes on from its text, starts over, or neither (its answer was on record). */
type Comeback = 'step_resumed' | 'step_retry' | null;
const scenarios: [string, FaultRule, Comeback][] = [
  // The step goes on from the chapter text its first attempt streamed.
  [
    'a. mid LLM stream (writer streaming the chapter)',
    { point: 'llm.mid_stream', match: { agent: 'writer', kind: 'planned' } },
    'step_resumed',
  ],
  [
    'b. after create_file committed to MongoDB, before the activity completed',
    { point: 'tool.after_write', match: { name: 'create_file', agent: 'writer' } },
    null,
  ],
  // Nothing streamed yet: the step starts over (there is nothing to drop either).
  [
    'c. mid-handoff: planner done, writer’s first step not started',
    { point: 'llm.start', match: { agent: 'writer', firstOfRun: true, kind: 'planned' } },
    'step_retry',
  ],
  // No review follows this short chapter, so the round's chat text is not held: it streams live,
  // and the step goes on from what it had streamed.
  [
    'd. during the writer’s file-stream continuation round',
    { point: 'llm.mid_stream', match: { agent: 'writer', kind: 'continuation' } },
    'step_resumed',
  ],
  // The step saves its streamed chapter itself (h10-capture-in-step): the retried step goes on
  // from the whole text, finds the first attempt's version of it and writes no second one.
  [
    'e. after the writer’s step saved the streamed chapter, before the step completed',
    { point: 'llm.after_capture', match: { agent: 'writer' } },
    'step_resumed',
  ],
  // The step runs its own tool calls (h11-tools-in-step): the retry finds the answer on record,
  // does not ask the model again, and re-reports the stored call at the same stream positions.
  [
    'f. after the writer’s step ran create_file and reported it, before the step completed',
    { point: 'llm.after_tool', match: { name: 'create_file', agent: 'writer' } },
    null,
  ],
  // The step saved the chapter and reported the save and its usage, and never completed (as
  // when Temporal does not take a completion during an outage): the retry goes on from the
  // whole text and reports nothing twice — the sequence below would show it.
  [
    'g. after the writer’s step reported its save and usage, before the step completed',
    { point: 'llm.after_end_events', match: { agent: 'writer', kind: 'planned' } },
    'step_resumed',
  ],
  // The router is asked inside the preparation, a local activity in the turn's first workflow task:
  // the task times out on the dead worker and the next worker runs the opening again, the router's call included.
  ['h. during routing: the router’s model answered, nothing of it on record', { point: 'router.answered' }, null],
];

test.each(scenarios)(
  '%s: the turn completes with the clean run’s files and text; no duplicates',
  async (name, fault, comeback) => {
    const run = await runWithFault(fault);
    expect(run.events[run.events.length - 1]!.type).toBe('done');
    expect(run.events[run.events.length - 1]!.data).toEqual({ status: 'completed' });
    expect(run.files).toEqual(clean.files);
    expectExactlyOnceInOrder(run.frames);
    const comebacks = run.events.filter((e) => e.type === 'step_retry' || e.type === 'step_resumed');
    expect(comebacks.map((e) => e.type)).toEqual(comeback ? [comeback] : []);
    if (comeback) expect(comebacks[0]!.attempt).toBeGreaterThan(1);
    if (comeback === 'step_resumed') expect((comebacks[0]!.data as { keptChars: number }).keptChars).toBeGreaterThan(0);
    const got = shape(run.events);
    const want = shape(clean.events);
    expect(got.sequence).toEqual(want.sequence);
    expect(got.text).toEqual(want.text);
    // What a reload shows, byte for byte: a resumed step's text has no seam in it.
    expect(run.chat).toEqual(clean.chat);
    if (run.killedAt && run.replacementUpAt && run.firstEventAfterKill)
      recovery[name.slice(0, 1)] = {
        fromKill: run.firstEventAfterKill - run.killedAt,
        fromReplacementUp: Math.max(0, run.firstEventAfterKill - run.replacementUpAt),
      };
  },
  120000,
);

afterAll(() => {
  // Recovery after SIGKILL → next event on the stream (heartbeat timeout 2 s): from the kill,
  // which here includes booting the replacement worker process, and from when it was up, which
  // is what a deployment with another worker already running sees.
  console.log(`recovery after SIGKILL (ms): ${JSON.stringify(recovery)}`);
});
