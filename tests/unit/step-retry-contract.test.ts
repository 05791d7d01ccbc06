/**
 * `step_retry` voids what src/core/events.ts says (STEP_RETRY_VOIDS: the step's text, thinking and
 * file body) and nothing else: the step's usage, saves and tool cards stand, since the retry never
 * sends them again. Every consumer follows that one list: the turn fold (the server's record and
 * Studio's conversation), Studio's chapter fold on the job screen, and the CLI.
 */
import { TurnRenderer } from '../../src/cli/render';
import type { StreamEvent } from '../../src/core/events';
import { STEP_RETRY_STANDS, STEP_RETRY_VOIDS, voidedByRetry } from '../../src/core/step-retry';
import { foldTurn, newTurnView, type TurnItem } from '../../src/core/turn/turn-view';
import { emptyChapterLive, foldChapter } from '../../studio/src/pages/job-fold';
import type * as StepRetry from '../../src/core/step-retry';
import type * as TurnView from '../../src/core/turn/turn-view';
import type * as JobFold from '../../studio/src/pages/job-fold';
import type * as Render from '../../src/cli/render';

const ev = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ type, data, seq: 0, ts: '', agent: 'writer', ...extra }) as unknown as StreamEvent;
const F = 'a'.repeat(24);
const G = 'b'.repeat(24);
const usage = (totalTokens: number, costUsd: number, step: number) =>
  ev(
    'usage',
    { promptTokens: totalTokens, completionTokens: 0, totalTokens, source: 'provider', model: 'm', costUsd },
    { step },
  );

/**
 * Step 1 opens the chapter; step 2 streams text, thinking and the chapter body, runs a tool, saves
 * another file and reports its usage, then is retried and starts over. Its retry sends none of its
 * standing events again (llm.ts), only its new text and body.
 */
const STREAM: StreamEvent[] = [
  ev('agent_selected', { agent: 'writer', reason: '', run: 1 }),
  ev(
    'tool_call',
    { name: 'create_file', arguments: { title: 'Chapter 1' }, summary: '' },
    { toolCallId: 'c1', step: 1 },
  ),
  ev('tool_result', { name: 'create_file', ok: true, result: { id: F } }, { toolCallId: 'c1', step: 1 }),
  ev('file_created', { fileId: F, title: 'Chapter 1', fileType: 'draft', words: 0 }, { step: 1 }),
  ev('content', { delta: 'Opening chapter 1.' }, { step: 1 }),
  usage(100, 0.01, 1),
  ev('thinking', { delta: 'plan the tide' }, { step: 2 }),
  ev('content', { delta: 'Here is the draft.' }, { step: 2 }),
  ev('file_content', { fileId: F, delta: 'The tide came in.' }, { step: 2 }),
  ev('tool_call', { name: 'query_files', arguments: { query: 'tide' }, summary: '' }, { toolCallId: 'c2', step: 2 }),
  ev('tool_result', { name: 'query_files', ok: true }, { toolCallId: 'c2', step: 2 }),
  ev(
    'file_updated',
    { fileId: G, title: 'Notes', fileType: 'draft', versionId: 'v', words: 3, operation: 'edit' },
    {
      step: 2,
    },
  ),
  usage(250, 0.02, 2),
  ev('step_retry', { attempt: 2, message: '' }, { step: 2, attempt: 2 }),
  ev('content', { delta: 'Here is the chapter.' }, { step: 2, attempt: 2 }),
  ev('file_content', { fileId: F, delta: 'The tide rose.' }, { step: 2, attempt: 2 }),
  ev('done', { status: 'completed' }),
];
const RETRY = STREAM.find((e) => e.type === 'step_retry') as Extract<StreamEvent, { type: 'step_retry' }>;

describe('the contract', () => {
  test('the streamed output of the same step is void; its usage, saves and tool cards stand', () => {
    expect([...STEP_RETRY_VOIDS].sort()).toEqual(['content', 'file_content', 'thinking']);
    expect(STEP_RETRY_STANDS).toEqual(
      expect.arrayContaining(['usage', 'file_created', 'file_updated', 'tool_call', 'tool_result']),
    );
    expect(STEP_RETRY_STANDS.filter((t) => (STEP_RETRY_VOIDS as readonly string[]).includes(t))).toEqual([]);
    const voided = STREAM.slice(0, STREAM.indexOf(RETRY)).filter((e) => voidedByRetry(e, RETRY));
    expect(voided.map((e) => `${e.step}:${e.type}`)).toEqual(['2:thinking', '2:content', '2:file_content']);
  });
});

describe('the turn fold (the turn record on the server, the conversation in Studio)', () => {
  const v = foldTurn(newTurnView('t', 'Write chapter 1'), STREAM);
  const of = <K extends TurnItem['kind']>(kind: K) =>
    v.items.filter((i): i is Extract<TurnItem, { kind: K }> => i.kind === kind);

  test("drops the step's text, thinking and body from before the retry", () => {
    expect(of('text').map((i) => [i.step, i.text])).toEqual([
      [1, 'Opening chapter 1.'],
      [2, 'Here is the chapter.'],
    ]);
    expect(of('thinking')).toEqual([]);
    // Looked at before `done`, which discards a body still streaming.
    const live = foldTurn(newTurnView('t', 'Write chapter 1'), STREAM.slice(0, -1));
    expect(live.items.find((i) => i.kind === 'file' && i.fileId === F)).toMatchObject({
      body: 'The tide rose.',
      live: 14,
    });
  });
  test('keeps its usage, its tool steps and its saves', () => {
    expect(v.tokens).toBe(350);
    expect(v.costUsd).toBeCloseTo(0.03, 9);
    expect(of('tool').map((t) => [t.id, t.ok])).toEqual([
      ['c1', true],
      ['c2', true],
    ]);
    expect(of('file').find((f) => f.fileId === G)).toMatchObject({ op: 'updated', words: 3 });
  });
});

test("Studio's chapter fold: the step's body starts over; its usage and saves stand", () => {
  const c = foldChapter(emptyChapterLive(), STREAM);
  expect(c.bodies[F]!.text).toBe('The tide rose.');
  expect(c).toMatchObject({ tokens: 350, saved: { [F]: 0, [G]: 3 } });
  expect(c.costUsd).toBeCloseTo(0.03, 9);
});

describe('the CLI', () => {
  const render = (showThinking: boolean) => {
    let out = '';
    const r = new TurnRenderer({ write: (s) => (out += s), tty: false, showThinking });
    for (const e of STREAM) r.event(e);
    return out;
  };
  test('a printed line cannot be taken back: the retry line names what of the step above is void', () => {
    expect(render(true)).toContain('↻ step 2 restarted (attempt 2): ignore its thinking, text and file progress above');
    // Thinking that was never printed is not named.
    expect(render(false)).toContain('↻ step 2 restarted (attempt 2): ignore its text and file progress above');
  });
  test("the usage total keeps the earlier attempt's usage", () => {
    expect(render(false)).toContain('✔ completed · 350 tokens');
  });
});

describe('every consumer takes the list from the contract, not an idea of its own', () => {
  // A contract where only the text is void: each consumer must then keep the step's thinking and body.
  const ONLY_TEXT = ['content'];
  const load = async () => {
    let loaded!: [typeof TurnView, typeof JobFold, typeof Render];
    await jest.isolateModulesAsync(async () => {
      jest.doMock('../../src/core/step-retry', () => ({
        ...jest.requireActual<typeof StepRetry>('../../src/core/step-retry'),
        STEP_RETRY_VOIDS: ONLY_TEXT,
        voidedByRetry: (e: StreamEvent, r: StreamEvent) => e.step === r.step && ONLY_TEXT.includes(e.type),
      }));
      loaded = await Promise.all([
        import('../../src/core/turn/turn-view'),
        import('../../studio/src/pages/job-fold'),
        import('../../src/cli/render'),
      ]);
    });
    return loaded;
  };
  afterAll(() => jest.dontMock('../../src/core/step-retry'));

  test('the turn fold, the chapter fold and the CLI follow a changed list', async () => {
    const [turn, job, cli] = await load();
    const v = turn.foldTurn(turn.newTurnView('t', ''), STREAM);
    expect(v.items.filter((i) => i.kind === 'thinking')).toEqual([
      expect.objectContaining({ step: 2, text: 'plan the tide' }),
    ]);
    expect(job.foldChapter(job.emptyChapterLive(), STREAM).bodies[F]!.text).toBe('The tide came in.The tide rose.');
    let out = '';
    const r = new cli.TurnRenderer({ write: (s) => (out += s), tty: false, showThinking: true });
    for (const e of STREAM) r.event(e);
    expect(out).toContain('↻ step 2 restarted (attempt 2): ignore its text above');
  });
});
