/**
 * The offline model's provider profiles (src/offline-model/profiles.ts) on the wire: each
 * profile's chunks as its provider documents them, read as raw SSE frames so every field
 * (and every field's absence) is seen, and the failure shapes a script entry selects.
 */
import { startOfflineModel, type OfflineModel } from '../../src/offline-model';

const SYSTEM = '# Scriptorium agent: writer\nYou write chapters.';
type Chunk = {
  choices: { delta: Record<string, unknown>; finish_reason: string | null }[];
  usage?: Record<string, unknown> | null;
  system_fingerprint: string | null;
};

let model: OfflineModel;
beforeAll(async () => {
  model = await startOfflineModel({ ttftMs: 0, tokensPerSecond: 1e6 });
});
afterAll(() => model.close());
beforeEach(() => model.reset());

/** Posts a streamed request and returns its frames (`[DONE]` as the string), or the error. */
async function frames(
  modelName: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; chunks: Chunk[]; done: boolean; error?: unknown }> {
  const res = await fetch(`${model.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      model: modelName,
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: 'write' },
      ],
    }),
  });
  let text = '';
  let error: unknown;
  try {
    text = await res.text();
  } catch (err) {
    error = err;
  }
  const data = text
    .split('\n\n')
    .filter((f) => f.startsWith('data: '))
    .map((f) => f.slice(6));
  return {
    status: res.status,
    chunks: data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d) as Chunk),
    done: data.includes('[DONE]'),
    error,
  };
}

const twoCalls = {
  content: 'Opening both.',
  toolCalls: [
    { name: 'create_file', arguments: { type: 'draft', title: 'Chapter 1' } },
    { name: 'query_files', arguments: { query: 'harbour' } },
  ],
};
const deltas = (chunks: Chunk[]) => chunks.flatMap((c) => c.choices.map((x) => x.delta));
const toolDeltas = (chunks: Chunk[]) =>
  deltas(chunks).flatMap((d) => (d.tool_calls as Record<string, unknown>[] | undefined) ?? []);
const finish = (chunks: Chunk[]) => chunks.flatMap((c) => c.choices.map((x) => x.finish_reason)).filter(Boolean);

test('openai: calls split across chunks by index, usage null on every chunk but the last, which has no choices', async () => {
  model.script([{ reply: { ...twoCalls, reasoning: 'hidden thoughts here' } }]);
  const { chunks, done } = await frames('offline:openai');
  expect(done).toBe(true);
  expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '', refusal: null });
  const calls = toolDeltas(chunks);
  expect(calls.filter((c) => c.id).map((c) => c.index)).toEqual([0, 1]);
  expect(calls.filter((c) => c.index === 0).length).toBeGreaterThan(2);
  expect(
    calls
      .filter((c) => c.index === 0)
      .map((c) => (c.function as { arguments: string }).arguments)
      .join(''),
  ).toBe('{"type":"draft","title":"Chapter 1"}');
  expect(finish(chunks)).toEqual(['tool_calls']);
  // OpenAI does not stream reasoning; it reports only its count.
  expect(deltas(chunks).some((d) => 'reasoning_content' in d || 'reasoning' in d)).toBe(false);
  expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  const last = chunks[chunks.length - 1]!;
  expect(last.choices).toEqual([]);
  expect(last.usage).toMatchObject({
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: expect.any(Number) },
  });
  expect((last.usage!.completion_tokens_details as { reasoning_tokens: number }).reasoning_tokens).toBeGreaterThan(0);
});

test('deepseek: reasoning_content (content null) before the answer; usage in DeepSeek’s cache fields', async () => {
  model.script([{ reply: { reasoning: 'First I weigh the harbour scene.', content: 'The harbour.' } }]);
  const { chunks } = await frames('offline:deepseek');
  const ds = deltas(chunks);
  const firstContent = ds.findIndex((d) => typeof d.content === 'string' && d.content !== '');
  const reasoning = ds.filter((d) => typeof d.reasoning_content === 'string');
  expect(reasoning.map((d) => d.reasoning_content).join('')).toBe('First I weigh the harbour scene.');
  expect(reasoning.every((d) => d.content === null)).toBe(true);
  expect(ds.findIndex((d) => typeof d.reasoning_content === 'string')).toBeLessThan(firstContent);
  const usage = chunks[chunks.length - 1]!.usage!;
  expect(usage).toMatchObject({
    prompt_cache_hit_tokens: expect.any(Number),
    prompt_cache_miss_tokens: expect.any(Number),
  });
  expect((usage.prompt_cache_hit_tokens as number) + (usage.prompt_cache_miss_tokens as number)).toBe(
    usage.prompt_tokens,
  );
  expect(usage).not.toHaveProperty('prompt_tokens_details');
});

test('vllm: thinking as `reasoning`, tool ids chatcmpl-tool-…, and a script may end tool calls with "stop"', async () => {
  model.script([{ reply: { reasoning: 'Think.', toolCalls: twoCalls.toolCalls, finishReason: 'stop' } }]);
  const { chunks } = await frames('m', { 'x-offline-profile': 'vllm' });
  expect(
    deltas(chunks)
      .filter((d) => d.reasoning)
      .map((d) => d.reasoning)
      .join(''),
  ).toBe('Think.');
  expect(
    toolDeltas(chunks)
      .filter((c) => c.id)
      .every((c) => String(c.id).startsWith('chatcmpl-tool-')),
  ).toBe(true);
  expect(finish(chunks)).toEqual(['stop']);
  expect(model.requests[0]!.profile).toBe('vllm');
});

test('ollama: each call whole in one chunk, role on every delta, fp_ollama, usage only in the last chunk', async () => {
  model.script([{ reply: twoCalls }]);
  const { chunks } = await frames('offline:ollama');
  const calls = toolDeltas(chunks);
  expect(calls).toHaveLength(2);
  expect(calls[1]).toMatchObject({
    index: 1,
    type: 'function',
    function: { name: 'query_files', arguments: '{"query":"harbour"}' },
  });
  expect(deltas(chunks).every((d) => d.role === 'assistant')).toBe(true);
  expect(chunks.every((c) => c.system_fingerprint === 'fp_ollama')).toBe(true);
  expect(chunks.filter((c) => c.usage).length).toBe(1);
  expect(chunks[chunks.length - 1]!.choices).toEqual([]);
});

test('failure shapes: length mid-body, content_filter, a cut connection, an unknown profile', async () => {
  model.script([{ reply: { content: '<file>\nThe tide rose and', finishReason: 'length' } }]);
  expect(finish((await frames('offline:openai')).chunks)).toEqual(['length']);
  model.script([{ reply: { content: 'I can’t', finishReason: 'content_filter' } }]);
  expect(finish((await frames('offline:deepseek')).chunks)).toEqual(['content_filter']);
  model.script([{ reply: { content: 'The tide rose over the seawall tonight.' }, cutAfterChars: 10 }]);
  const cut = await frames('offline:vllm');
  expect(cut.done).toBe(false);
  expect(finish(cut.chunks)).toEqual([]);
  expect(cut.error).toBeDefined();
  const unknown = await frames('offline:anthropic');
  expect(unknown.status).toBe(400);
});
