/**
 * Provider failure shapes through a real turn: an answer cut at the output
 * limit inside a `<file>` body or inside tool arguments, a content filter, an empty answer,
 * 429 / 500 / 503, a connection cut mid-stream and a stream that stalls. Whatever comes, the
 * turn ends in bounded time with a true account — done, failed or stopped with a reason —
 * claims no save that did not happen, and keeps every word that was written.
 */
import type { ScriptEntry } from '../../src/offline-model';
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, chatText, ofType, prose, router, say } from '../helpers/script';
import { assistantMessages, expectTrueAccount, expectValidStream, projectFiles } from './helpers';

jest.setTimeout(90000);

const BODY = prose(80);
const PART = prose(30);
const opening = (): ScriptEntry[] => [
  router({ current_agent: 'writer', workflow_plan: 'quick' }),
  call('writer', 'create_file', { type: 'draft', title: 'Chapter 1' }),
];
const chapter = (extra: Partial<ScriptEntry> = {}): ScriptEntry => ({
  match: { agent: 'writer' },
  reply: { content: `<file>\n${BODY}\n</file>\nChapter 1 is saved.` },
  ...extra,
});

describe.each(['openai', 'deepseek'])('profile %s', (profile) => {
  let h: Harness;
  beforeAll(async () => {
    // A stream quiet for 1 s once started is given up and retried (the step's own limit stays 600 s).
    h = await createHarness({
      config: { OPENAI_MODEL: `offline:${profile}`, REVIEW_WORD_THRESHOLD: '5000', LLM_STREAM_IDLE_SECONDS: '1' },
    });
  });
  afterAll(async () => h?.close());
  afterEach(() => expectScriptFullyUsed(h));

  async function turn(script: ScriptEntry[], message = 'Write chapter 1') {
    const { projectId, sessionId } = await createProjectAndSession(h);
    h.model.script(script);
    const started = Date.now();
    const r = await runTurn(h, sessionId, message);
    expectValidStream(r.events);
    await expectTrueAccount(h, r);
    return {
      ...r,
      projectId,
      sessionId,
      elapsed: Date.now() - started,
      files: await projectFiles(h, r.turn.projectId as string),
      stored: (await assistantMessages(h, r.turnId)).join('\n'),
    };
  }

  test('length inside a <file> body: what was written is saved and said to be unfinished; the turn stops, resumable', async () => {
    const r = await turn([
      ...opening(),
      {
        match: { agent: 'writer' },
        reply: { reasoning: 'Long chapter ahead.', content: `<file>\n${PART}`, finishReason: 'length' },
      },
    ]);
    expect(r.outcome).toMatchObject({ status: 'exhausted', stopReason: 'output_truncated' });
    expect(r.files['Chapter 1']!.content.trim()).toBe(PART);
    const stop = ofType(r.events, 'workflow_stopped')[0]!;
    expect(stop.data).toMatchObject({ reason: 'output_truncated', terminal: true });
    expect(stop.data.message).toMatch(/"Chapter 1" is unfinished; the 30 words written so far are saved/);
    // The chat, live and stored, says the same; it never says the chapter is complete.
    expect(chatText(r.events)).toContain('"Chapter 1" is unfinished');
    expect(r.stored).toContain('"Chapter 1" is unfinished');
    expect(r.turn.resume).toMatchObject({ agent: 'writer' });
  });

  test('length inside tool arguments: the cut call is refused, no file is made, the model is told and answers', async () => {
    const r = await turn([
      router({ current_agent: 'writer', workflow_plan: 'quick' }),
      {
        match: { agent: 'writer' },
        reply: {
          content: 'Opening it.',
          toolCalls: [{ name: 'create_file', arguments: '{"type":"draft","title":"Chap' }],
          finishReason: 'length',
        },
      },
      say('writer', 'I could not open the chapter; nothing was created.'),
    ]);
    expect(r.outcome.status).toBe('completed');
    expect(ofType(r.events, 'tool_result').map((e) => [e.data.ok, e.data.errorType])).toEqual([
      [false, 'invalid_arguments'],
    ]);
    expect(ofType(r.events, 'file_created')).toEqual([]);
    expect(r.files).toEqual({});
    const second = h.model.requests.filter((q) => q.agent === 'writer')[1]!;
    expect(JSON.stringify(second.body.messages)).toContain('not valid JSON');
  });

  test('content_filter: the turn fails with the reason, and the text before the filter is kept', async () => {
    const r = await turn([
      router({ current_agent: 'writer', workflow_plan: 'quick' }),
      { match: { agent: 'writer' }, reply: { content: 'The storm broke and the', finishReason: 'content_filter' } },
    ]);
    expect(r.outcome).toMatchObject({ status: 'failed', stopReason: 'content_filtered' });
    expect(ofType(r.events, 'workflow_stopped').map((e) => e.data.reason)).toEqual(['content_filtered']);
    expect(ofType(r.events, 'error').map((e) => e.data.code)).toEqual(['content_filtered']);
    expect(r.stored).toMatch(/^The storm broke and the\n\nThe model provider's content filter stopped the answer/);
  });

  test('content_filter inside a <file> body: the part written is saved and called unfinished', async () => {
    const r = await turn([
      ...opening(),
      { match: { agent: 'writer' }, reply: { content: `<file>\n${PART}`, finishReason: 'content_filter' } },
    ]);
    expect(r.outcome).toMatchObject({ status: 'failed', stopReason: 'content_filtered' });
    expect(r.files['Chapter 1']!.content.trim()).toBe(PART);
    expect(r.stored).toContain('"Chapter 1" is unfinished');
  });

  test('an empty answer: the turn fails saying so, no reply pretends otherwise', async () => {
    const r = await turn([
      router({ current_agent: 'writer', workflow_plan: 'quick' }),
      { match: { agent: 'writer' }, reply: {} },
    ]);
    expect(r.outcome).toMatchObject({ status: 'failed', stopReason: 'empty_answer' });
    expect(r.stored).toBe('The model returned an empty answer; nothing was written.');
  });

  test('429 with Retry-After and a 500 are retried; the chapter is saved once', async () => {
    const r = await turn([
      ...opening(),
      {
        match: { agent: 'writer' },
        error: { status: 429, message: 'Rate limit reached', headers: { 'retry-after': '1' } },
      },
      {
        match: { agent: 'writer' },
        error: { status: 500, message: 'The server had an error while processing your request.' },
      },
      chapter(),
    ]);
    expect(r.outcome.status).toBe('completed');
    expect(r.files['Chapter 1']!.content.trim()).toBe(BODY);
    expect(r.files['Chapter 1']!.versions).toBe(1);
    expect(ofType(r.events, 'step_retry')).toHaveLength(2);
    expect(ofType(r.events, 'file_updated')).toHaveLength(1);
  });

  test('a provider that stays down (503) fails the turn in bounded time; the empty file it opened is not claimed', async () => {
    const down = {
      match: { agent: 'writer' as const },
      error: { status: 503, message: 'Service Unavailable', headers: { 'retry-after-ms': '50' } },
    };
    const r = await turn([...opening(), ...Array.from({ length: 7 }, () => down)]);
    expect(r.outcome.status).toBe('failed');
    expect(r.elapsed).toBeLessThan(20000);
    expect(ofType(r.events, 'error').map((e) => e.data.code)).toEqual(['activity_failed']);
    // The file it created was never written: rolled back, and the reply says so.
    expect(r.files).toEqual({});
    expect(r.stored).toMatch(/Not saved: "Chapter 1" was never written/);
  });

  test('a request the provider refuses outright (400, its filter on the prompt) fails at once, not retried', async () => {
    const refused = {
      match: { agent: 'writer' as const },
      error: { status: 400, message: 'The prompt was filtered by the content management policy.' },
    };
    const r = await turn([router({ current_agent: 'writer', workflow_plan: 'quick' }), refused]);
    expect(r.outcome.status).toBe('failed');
    expect(h.model.requests.filter((q) => q.agent === 'writer')).toHaveLength(1);
    expect(ofType(r.events, 'step_retry')).toEqual([]);
    expect(ofType(r.events, 'error')[0]!.data.message).toMatch(/model rejected the request \(400\)/);
  });

  test('the connection cut mid-body: the step goes on from what streamed, and the chapter is whole and saved once', async () => {
    // Paced, so the client has the text before the cut (bytes in flight at a cut are lost, and then nothing is kept).
    const r = await turn([...opening(), chapter({ cutAfterChars: 200, tokensPerSecond: 1000 }), chapter()]);
    expect(r.outcome.status).toBe('completed');
    expect(ofType(r.events, 'step_resumed')).toHaveLength(1);
    expect(r.files['Chapter 1']!.content.trim()).toBe(BODY);
    expect(r.files['Chapter 1']!.versions).toBe(1);
    const shown = ofType(r.events, 'file_content')
      .map((e) => e.data.delta)
      .join('');
    expect(shown.trim()).toBe(BODY);
  });

  test('a stream that stalls with no bytes is given up after LLM_STREAM_IDLE_SECONDS, not the step limit, and resumed', async () => {
    const r = await turn([...opening(), chapter({ stallAfterChars: 200, tokensPerSecond: 1000 }), chapter()]);
    expect(r.outcome.status).toBe('completed');
    expect(r.elapsed).toBeLessThan(10000);
    expect(ofType(r.events, 'step_resumed')).toHaveLength(1);
    expect(r.files['Chapter 1']!.content.trim()).toBe(BODY);
  });
});
