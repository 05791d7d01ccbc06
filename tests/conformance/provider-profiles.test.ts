/**
 * Provider conformance: a real turn — router, a writer step with two tool
 * calls in one answer, a streamed `<file>` body, a closing line — through each provider
 * profile of the offline model (src/offline-model/profiles.ts), on real Temporal, MongoDB and
 * Redis. Each profile must leave the same true account: a valid stream ending in `done`, the
 * file saved as streamed, one provider usage record per model call with the cached and
 * reasoning tokens its provider reports, a final message, and thinking shown as `thinking`
 * only — never in chat text, the saved file, the stored message or any later request.
 */
import type { ScriptEntry } from '../../src/offline-model';
import type { ProfileName } from '../../src/offline-model/profiles';
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { chatText, ofType, prose, router, say } from '../helpers/script';
import {
  assistantMessages,
  everythingSent,
  expectValidStream,
  projectFiles,
  thinkingText,
  usageRecords,
} from './helpers';

const BODY = prose(60);
const THOUGHT_1 = 'REASONING-ONE: the harbour scene needs the lamps before the storm.';
const THOUGHT_2 = 'REASONING-TWO: keep Mara counting, end on the seawall.';

interface ProfileCase {
  profile: Exclude<ProfileName, 'default'>;
  /** Whether the provider streams thinking (OpenAI keeps it hidden). */
  streamsThinking: boolean;
  /** Whether its usage carries cached prompt tokens, and reasoning tokens. */
  reportsCache: boolean;
  reportsReasoning: boolean;
  /** How its tool-call answer ends (vLLM with a named / required tool choice: `stop`). */
  toolFinish?: 'stop';
}

const CASES: ProfileCase[] = [
  { profile: 'openai', streamsThinking: false, reportsCache: true, reportsReasoning: true },
  { profile: 'deepseek', streamsThinking: true, reportsCache: true, reportsReasoning: true },
  { profile: 'vllm', streamsThinking: true, reportsCache: false, reportsReasoning: false, toolFinish: 'stop' },
  { profile: 'ollama', streamsThinking: true, reportsCache: false, reportsReasoning: false },
];

function chapterTurn(c: ProfileCase): ScriptEntry[] {
  return [
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    {
      match: { agent: 'writer' },
      reply: {
        reasoning: THOUGHT_1,
        content: 'Checking the notes, then opening the chapter.',
        // Two calls in one answer: OpenAI and vLLM split each across chunks by index, Ollama sends each whole.
        toolCalls: [
          { name: 'query_files', arguments: { query: 'harbour' } },
          { name: 'create_file', arguments: { type: 'draft', title: 'Chapter 1' } },
        ],
        ...(c.toolFinish ? { finishReason: c.toolFinish } : {}),
      },
    },
    {
      match: { agent: 'writer' },
      reply: { reasoning: THOUGHT_2, content: `<file>\n${BODY}\n</file>\nChapter 1 is saved: the harbour at night.` },
    },
  ];
}

describe.each(CASES)('profile $profile', (c) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ config: { OPENAI_MODEL: `offline:${c.profile}`, REVIEW_WORD_THRESHOLD: '5000' } });
  });
  afterAll(async () => h?.close());
  afterEach(() => expectScriptFullyUsed(h));

  test('a chapter turn: valid stream, the file as streamed, usage per call, thinking kept out of text and history', async () => {
    const { projectId, sessionId } = await createProjectAndSession(h);
    h.model.script(chapterTurn(c));
    const r = await runTurn(h, sessionId, 'Write chapter 1');
    expect(h.model.requests.every((q) => q.profile === c.profile)).toBe(true);
    expect(r.outcome.status).toBe('completed');
    expectValidStream(r.events);

    // Both calls ran, each answered on its own.
    expect(ofType(r.events, 'tool_call').map((e) => e.data.name)).toEqual(['query_files', 'create_file']);
    expect(ofType(r.events, 'tool_result').map((e) => [e.data.name, e.data.ok])).toEqual([
      ['query_files', true],
      ['create_file', true],
    ]);
    const files = await projectFiles(h, projectId);
    expect(Object.keys(files)).toEqual(['Chapter 1']);
    expect(files['Chapter 1']!.content.trim()).toBe(BODY);
    expect(ofType(r.events, 'file_updated').map((e) => e.data.fileId)).toEqual([files['Chapter 1']!.id]);
    expect(r.outcome.filesWritten.map((f) => f.title)).toEqual(['Chapter 1']);

    // Thinking: `thinking` events when the provider streams it, and nowhere else.
    expect(thinkingText(r.events)).toBe(c.streamsThinking ? THOUGHT_1 + THOUGHT_2 : '');
    const chat = chatText(r.events);
    expect(chat).toContain('Chapter 1 is saved');
    const stored = (await assistantMessages(h, r.turnId)).join('\n');
    expect(stored).toContain('Chapter 1 is saved');
    for (const text of [chat, stored, files['Chapter 1']!.content]) expect(text).not.toMatch(/REASONING-/);

    // One provider usage record per model call (router + two writer steps), with what the provider reports.
    const usage = await usageRecords(h, r.turnId);
    expect(usage).toHaveLength(3);
    expect(usage.every((u) => u.source === 'provider' && u.promptTokens > 0)).toBe(true);
    const [, first, second] = usage;
    // The second writer request repeats the first one's prompt: a prefix cache serves part of it.
    if (c.reportsCache) expect(second!.cachedPromptTokens).toBeGreaterThan(0);
    else expect(usage.every((u) => u.cachedPromptTokens === 0)).toBe(true);
    if (c.reportsReasoning) expect([first!.reasoningTokens, second!.reasoningTokens].every((n) => n > 0)).toBe(true);
    else expect(usage.every((u) => u.reasoningTokens === 0)).toBe(true);

    // The next turn's requests carry the history without any of the thinking.
    h.model.reset();
    h.model.script([
      router({ current_agent: 'writer', workflow_plan: 'quick' }),
      say('writer', 'Glad it works for you.'),
    ]);
    const next = await runTurn(h, sessionId, 'Thanks, that is good.');
    expect(next.outcome.status).toBe('completed');
    const writerRequest = h.model.requests.find((q) => q.agent === 'writer')!;
    expect(JSON.stringify(writerRequest.body.messages)).toContain('Chapter 1 is saved');
    expect(everythingSent(h)).not.toMatch(/REASONING-/);
  });
});
