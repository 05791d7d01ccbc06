/**
 * A worker SIGKILLed while the writer streams a chapter: the retried step goes on
 * from the text its first attempt streamed, by each continuation strategy the offline model
 * plays (DeepSeek's prefix, vLLM's continue_final_message, the instruction any endpoint
 * takes), and the chapter ends byte-identical to an uninterrupted run's — on disk and as a
 * client that stayed connected shows it. With LLM_CONTINUATION=off the step starts over
 * (`step_retry`), as before.
 */
import {
  createHarness,
  createProjectAndSession,
  type Harness,
  postTurn,
  turnEvents,
  waitTurn,
} from '../helpers/harness';
import { waitFor } from '../workflows/job-helpers';
import { readSse } from '../helpers/sse-client';
import { spawnWorker, type WorkerProcess } from '../helpers/worker-process';
import { call, router } from '../helpers/script';
import { REPEATED_CHARS } from '../../src/offline-model/continuation';
import type { ScriptEntry } from '../../src/offline-model';
import type { StreamEvent } from '../../src/core/events';

jest.setTimeout(120000);
let h: Harness;
let workers: WorkerProcess[] = [];

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
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  workers = [];
});
afterAll(async () => h?.close());

/** Prose that does not repeat itself (each sentence is numbered), as a chapter does not. */
const prose = Array.from(
  { length: 60 },
  (_, i) => `The tide rose for the ${i + 1}th time that night, and Mara wrote down what it took from the flats.`,
).join(' ');
const ANSWER = `<file>\n${prose}\n</file>\nChapter 1 is saved.`;
const STALL_AT = 1500;
const chapter = (stallAfterChars?: number): ScriptEntry => ({
  match: { agent: 'writer' },
  reply: { content: ANSWER },
  tokensPerSecond: 2000,
  ...(stallAfterChars ? { stallAfterChars } : {}),
});
const opening = (): ScriptEntry[] => [
  router({ current_agent: 'writer', workflow_plan: 'quick' }),
  call('writer', 'create_file', { type: 'draft', title: 'Chapter 1' }),
];

/** The file text a client shows: deltas per step, kept on step_resumed, dropped on step_retry. */
function clientFileText(events: StreamEvent[]): string {
  const byStep = new Map<number, string>();
  for (const e of events) {
    if (e.type === 'step_retry') byStep.delete(e.step!);
    if (e.type === 'file_content') byStep.set(e.step!, (byStep.get(e.step!) ?? '') + e.data.delta);
  }
  return [...byStep.values()].join('');
}

async function run(strategy: string, kill: boolean) {
  h.model.reset();
  h.model.script([...opening(), chapter(kill ? STALL_AT : undefined), ...(kill ? [chapter()] : [])]);
  const env = { LLM_CONTINUATION: strategy };
  workers.push(await spawnWorker(h, env));
  const { sessionId, projectId } = await createProjectAndSession(h);
  const turnId = await postTurn(h, sessionId, 'Write chapter 1');
  let seen = 0;
  let seenAtKill = 0;
  const sse = readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`, {
    timeoutMs: 100000,
    onFrame: (f) => {
      if (f.event === 'file_content') seen += (JSON.parse(f.data) as { data: { delta: string } }).data.delta.length;
    },
  });
  if (kill) {
    // The chapter has stalled mid-stream and what came is on the client's screen: the worker dies.
    let last = -1;
    await waitFor(
      'the chapter mid-stream',
      async () => {
        const stalled =
          h.model.activeResponses() === 1 && h.model.pendingEntries() === 1 && seen > STALL_AT / 2 && seen === last;
        last = seen;
        return stalled;
      },
      60000,
      250,
    );
    seenAtKill = seen;
    await workers[0]!.kill('SIGKILL');
    workers.push(await spawnWorker(h, env));
  }
  const frames = (await sse).frames;
  expect((await waitTurn(h, turnId)).status).toBe('completed');
  const file = await h.runtime.models.File.findOne({ projectId, title: 'Chapter 1' }).lean();
  const versions = await h.runtime.models.FileVersion.find({ fileId: String(file!._id) }).lean();
  const writer = h.model.requests.filter((r) => r.agent === 'writer');
  return { frames, events: await turnEvents(h, turnId), versions: versions.map((v) => v.content), writer, seenAtKill };
}

let clean: Awaited<ReturnType<typeof run>>;
test('reference: the chapter written without a crash', async () => {
  clean = await run('auto', false);
  expect(clean.versions).toHaveLength(1);
  // What the client was shown is what was saved.
  expect(clientFileText(clean.events).trim()).toBe(clean.versions[0]!.trim());
  expect(clean.versions[0]!.length).toBeGreaterThan(STALL_AT * 2);
});

test.each([
  [
    'prefix',
    (m: { role: string; prefix?: unknown }[]) => m.at(-1)!.role === 'assistant' && m.at(-1)!.prefix === true,
    0,
  ],
  [
    'continue_final_message',
    (m: { role: string }[], b: Record<string, unknown>) =>
      m.at(-1)!.role === 'assistant' && b.continue_final_message === true,
    0,
  ],
  [
    'instruction',
    (m: { role: string }[]) => m.at(-2)!.role === 'assistant' && m.at(-1)!.role === 'user',
    REPEATED_CHARS,
  ],
] as const)(
  '%s: the step goes on from the kept text; the chapter is byte-identical to the reference',
  async (strategy, shaped, repeated) => {
    const r = await run(strategy, true);
    // Stored once, exactly the reference text; a connected client shows exactly that too.
    expect(r.versions).toEqual(clean.versions);
    expect(clientFileText(r.events)).toBe(clientFileText(clean.events));
    const comebacks = r.events.filter((e) => e.type === 'step_resumed' || e.type === 'step_retry');
    expect(comebacks.map((e) => e.type)).toEqual(['step_resumed']);
    const resumed = comebacks[0] as Extract<StreamEvent, { type: 'step_resumed' }>;
    expect(resumed.data.attempt).toBe(2);
    // Kept: everything the client had seen ('<file>\n' and the body so far).
    expect(resumed.data.keptChars).toBe('<file>\n'.length + r.seenAtKill);

    // The continuation request took the strategy's shape, with the kept text as the assistant's.
    const [first, second] = [r.writer.at(-2)!, r.writer.at(-1)!];
    expect(second.continuation).toBe(strategy);
    const messages = second.body.messages as { role: string; content?: unknown; prefix?: unknown }[];
    expect(shaped(messages as never, second.body as never)).toBe(true);
    expect(messages.find((m, i) => m.role === 'assistant' && i >= messages.length - 2)!.content).toBe(
      ANSWER.slice(0, resumed.data.keptChars),
    );
    // Generated twice: only what a model repeats when asked by instruction (removed at the seam).
    const regenerated = first.sentChars! + second.sentChars! - ANSWER.length;
    expect(regenerated).toBe(repeated);
  },
);

test('off: the step starts over (step_retry) and still ends with the reference text', async () => {
  const r = await run('off', true);
  expect(r.versions).toEqual(clean.versions);
  expect(clientFileText(r.events)).toBe(clientFileText(clean.events));
  expect(r.events.filter((e) => e.type === 'step_resumed' || e.type === 'step_retry').map((e) => e.type)).toEqual([
    'step_retry',
  ]);
  expect(r.writer.at(-1)!.continuation).toBeUndefined();
  expect(r.writer.at(-1)!.sentChars).toBe(ANSWER.length);
});
