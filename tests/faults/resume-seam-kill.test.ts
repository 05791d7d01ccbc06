/**
 * A worker SIGKILLed right after a step streamed its first word, behind the blank lines its
 * answer opens with ("\n\n大", "\n\nThe"), in Chinese and English: the retried step goes on from that text and the
 * model, asked by instruction, restates it from its first word ("大纲已保存…"). The chat message
 * on record must be byte-identical to an uninterrupted run's, not "大大纲已保存…".
 */
import { createHarness, createProjectAndSession, type Harness, postTurn, waitTurn } from '../helpers/harness';
import { waitFor } from '../workflows/job-helpers';
import { readSse } from '../helpers/sse-client';
import { spawnWorker, type WorkerProcess } from '../helpers/worker-process';
import { router } from '../helpers/script';
import type { ScriptEntry } from '../../src/offline-model';
import type { StreamEvent } from '../../src/core/events';

jest.setTimeout(120000);
let h: Harness;
let workers: WorkerProcess[] = [];

beforeAll(async () => {
  h = await createHarness({
    noWorker: true,
    config: { LLM_HEARTBEAT_TIMEOUT_SECONDS: '2', STORE_HEARTBEAT_TIMEOUT_SECONDS: '2' },
  });
});
afterEach(async () => {
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  workers = [];
});
afterAll(async () => h?.close());

/** A planner answer that opens with blank lines, in each language, and where its step is killed. */
interface Case {
  lang: string;
  answer: string;
  message: string;
  /** The blank lines, then what the author's screen shows when the worker dies. */
  stallAt: number;
  seen: string;
}
const CASES: Case[] = [
  {
    lang: 'Chinese',
    answer: '\n\n大纲已保存：十章，跟随林从最初的发现一路走到最后的清算。告诉我先写哪一章，或者哪里需要调整。',
    message: '帮我想想这本书的大纲',
    stallAt: 3,
    seen: '大',
  },
  {
    lang: 'English',
    answer:
      '\n\nThe outline is saved: ten chapters following Lin from the first discovery to the final reckoning. Tell me which chapter to write first.',
    message: 'Help me think through an outline for this book',
    stallAt: 5,
    seen: 'The',
  },
];
const planner = (c: Case, stallAfterChars?: number): ScriptEntry => ({
  match: { agent: 'planner' },
  reply: { content: c.answer },
  tokensPerSecond: 2000,
  ...(stallAfterChars ? { stallAfterChars } : {}),
});

async function run(c: Case, kill: boolean) {
  h.model.reset();
  h.model.script([
    router({ current_agent: 'planner', workflow_plan: 'quick', write_content: false }),
    planner(c, kill ? c.stallAt : undefined),
    ...(kill ? [planner(c)] : []),
  ]);
  workers.push(await spawnWorker(h));
  const { sessionId } = await createProjectAndSession(h);
  const turnId = await postTurn(h, sessionId, c.message);
  let seen = '';
  const sse = readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`, {
    timeoutMs: 100000,
    onFrame: (f) => {
      if (f.event === 'content') seen += (JSON.parse(f.data) as { data: { delta: string } }).data.delta;
    },
  });
  if (kill) {
    // The planner has stalled with its first word on the client's screen (and in its checkpoint): the worker dies.
    await waitFor('the planner mid-stream', async () => h.model.activeResponses() === 1 && seen !== '', 60000, 100);
    expect(seen).toBe(c.seen);
    await workers[0]!.kill('SIGKILL');
    workers.push(await spawnWorker(h));
  }
  const events = (await sse).frames.map((f) => JSON.parse(f.data) as StreamEvent);
  expect((await waitTurn(h, turnId)).status).toBe('completed');
  const messages = await h.runtime.models.Message.find({ turnId, role: 'assistant' }).lean();
  return { events, chat: messages.map((m) => m.content) };
}

test.each(CASES)(
  '$lang: the chat message of a step killed after its blank lines and first word reads as the uninterrupted one',
  async (c) => {
    const clean = await run(c, false);
    expect(clean.chat).toEqual([c.answer.trim()]);
    const killed = await run(c, true);
    const comebacks = killed.events.filter((e) => e.type === 'step_resumed' || e.type === 'step_retry');
    expect(comebacks.map((e) => [e.type, (e.data as { keptChars?: number }).keptChars])).toEqual([
      ['step_resumed', c.stallAt],
    ]);
    // The continuation asked for the first word again; the seam removed it, in the record and on the stream.
    expect(h.model.requests.filter((r) => r.agent === 'planner').at(-1)!.continuation).toBe('instruction');
    expect(killed.chat).toEqual(clean.chat);
    const streamed = (events: StreamEvent[]) =>
      events.flatMap((e) => (e.type === 'content' ? [(e.data as { delta: string }).delta] : [])).join('');
    expect(streamed(killed.events)).toBe(streamed(clean.events));
  },
);
