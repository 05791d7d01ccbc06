/**
 * The terminal client: run as a real process against the harness it starts a turn and
 * prints agent switches, the file card and a progress line; its follower reconnects with
 * Last-Event-ID after every drop and renders exactly what an unbroken read renders.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { followStream, type Frame } from '../../src/cli/follow';
import { TurnRenderer } from '../../src/cli/render';
import {
  createHarness,
  type Harness,
  postTurn,
  createProjectAndSession,
  ROOT,
  routerReply,
  waitTurn,
} from '../helpers/harness';

const run = promisify(execFile);
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => h.model.reset());

const body = Array.from({ length: 30 }, (_, i) => `Line ${i}: the ferry left without her.`).join('\n');
const script = () => [
  routerReply({
    current_agent: 'planner',
    workflow_plan: 'standard',
    workflow_agents: ['planner', 'writer'],
    scope: 'chapter 1',
  }),
  { match: { agent: 'planner' as const }, reply: { content: 'Plan: one chapter, harbour setting.' } },
  {
    match: { agent: 'writer' as const },
    reply: {
      content: 'Writing it.',
      toolCalls: [{ name: 'create_file', arguments: { type: 'draft', title: 'Chapter 1' } }],
    },
  },
  { match: { agent: 'writer' as const }, reply: { content: `<file>\n${body}\n</file>\nChapter 1 is saved.` } },
  { match: { agent: 'quality_reviewer' as const }, reply: { content: 'Solid.' } },
];

test('npm run chat: a new project and session, the turn streamed with agents, file card and progress', async () => {
  h.model.script(script());
  const { stdout, stderr } = await run(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    [path.join(ROOT, 'src/cli/chat.ts'), '--url', h.baseUrl, 'Write chapter 1'],
    {
      cwd: ROOT,
      timeout: 60000,
    },
  );
  expect(stderr).toMatch(/created project [0-9a-f]{24}/);
  expect(stderr).toMatch(/created session [0-9a-f]{24}/);
  expect(stdout).toContain('▶ The planner');
  expect(stdout).toContain('▶ The writer');
  // A handoff reads as a sentence, not as "planner hands over to writer (planned): …".
  expect(stdout).toMatch(/→ (Next in the plan: the writer|The planner hands over to the writer)/);
  expect(stdout).not.toMatch(/\((planned|explicit|continuation)\)/);
  expect(stdout).toContain('Plan: one chapter, harbour setting.');
  expect(stdout).toContain('📄 created draft "Chapter 1"');
  expect(stdout).toContain(`[Chapter 1 … ${body.length + 1} chars]`);
  expect(stdout).toMatch(/📄 saved "Chapter 1" · \d+ words \(stream\)/);
  expect(stdout).toMatch(/✔ completed · \d+ tokens/);
  // The file body itself goes to the file, not into the chat text.
  expect(stdout).not.toContain('the ferry left without her');
  expect(h.model.failures).toEqual([]);
});

test('the follower resumes with Last-Event-ID after every drop and renders what an unbroken read renders', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script(script());
  const turnId = await postTurn(h, sessionId, 'Write chapter 1');
  await waitTurn(h, turnId);
  const url = `${h.baseUrl}/api/v1/turns/${turnId}/events`;

  const render = async (fetchImpl?: typeof fetch) => {
    let out = '';
    const r = new TurnRenderer({ write: (s) => (out += s), tty: false });
    const frames: Frame[] = [];
    const result = await followStream({
      url,
      fetchImpl,
      retryMs: 10,
      onFrame: (f) => (frames.push(f), r.frame(f.data)),
    });
    r.finish();
    return { out, frames, result };
  };

  // A line that dies after ~2.5 kB of every response (the biggest frame here is smaller).
  const sentIds: (string | null)[] = [];
  const flaky: typeof fetch = async (input, init) => {
    sentIds.push(new Headers(init?.headers).get('last-event-id'));
    const res = await fetch(input, init);
    let budget = 2500;
    const src = res.body!.getReader();
    const cut = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await src.read();
        if (done) return controller.close();
        if (value.length >= budget) {
          controller.enqueue(value.subarray(0, budget));
          await src.cancel();
          return controller.error(new Error('connection reset'));
        }
        budget -= value.length;
        controller.enqueue(value);
      },
    });
    return new Response(cut, { status: res.status, headers: res.headers });
  };

  const clean = await render();
  const broken = await render(flaky);
  expect(clean.result).toMatchObject({ end: 'done', connections: 1 });
  expect(broken.result.end).toBe('done');
  expect(broken.result.connections).toBeGreaterThan(2);
  expect(broken.out).toBe(clean.out);
  expect(broken.frames.map((f) => f.id)).toEqual(clean.frames.map((f) => f.id));
  // First connection from the start, every later one resumes after the last id it got.
  expect(sentIds[0]).toBeNull();
  expect(sentIds.slice(1).every((id) => id !== null && /^\d+-\d+$/.test(id))).toBe(true);

  // Resuming after done: the server answers 204 and the follower knows it is complete.
  const again = await followStream({
    url,
    headers: { 'last-event-id': clean.frames[clean.frames.length - 1]!.id! },
    onFrame: () => undefined,
  });
  expect(again.end).toBe('complete');
});
