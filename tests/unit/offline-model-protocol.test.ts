/**
 * The offline model over real HTTP with the real `openai` client: the wire protocol,
 * scripting, recording, loud failures, timing and cancellation.
 */
import OpenAI, { APIError } from 'openai';
import type { ChatCompletionChunk, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { startOfflineModel, type OfflineModel } from '../../src/offline-model';

const WRITER_SYSTEM = '# Scriptorium agent: writer\nYou write chapters.';
const PLANNER_SYSTEM = '# Scriptorium agent: planner\nYou plan.';

function convo(system: string, user: string): ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const c of stream) chunks.push(c);
  return chunks;
}

const contentOf = (chunks: ChatCompletionChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');

describe('offline model protocol', () => {
  let model: OfflineModel;
  let client: OpenAI;
  const errors: unknown[][] = [];

  beforeAll(async () => {
    model = await startOfflineModel({
      ttftMs: 0,
      tokensPerSecond: 1e6,
      logger: { info: () => undefined, error: (...a: unknown[]) => errors.push(a) },
    });
    client = new OpenAI({ baseURL: model.baseURL, apiKey: 'offline', maxRetries: 0 });
  });

  afterAll(async () => {
    await model.close();
  });

  beforeEach(() => {
    model.reset();
    model.setTiming({ ttftMs: 0, tokensPerSecond: 1e6 });
    errors.length = 0;
  });

  it('streams scripted text in word-sized pieces whose concatenation is the content, then a usage chunk', async () => {
    const content = 'The fog came in low.\n\n  "Who is there?" she asked —\tnobody answered.  ';
    model.script([{ reply: { content } }]);
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: convo(WRITER_SYSTEM, 'write'),
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = await collect(stream);

    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(contentOf(chunks)).toBe(content);
    const contentChunks = chunks.filter((c) => c.choices[0]?.delta.content);
    expect(contentChunks.length).toBeGreaterThan(8);
    const finish = chunks.filter((c) => c.choices[0]?.finish_reason);
    expect(finish).toHaveLength(1);
    expect(finish[0].choices[0].finish_reason).toBe('stop');
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage!.completion_tokens).toBeGreaterThan(5);
    expect(last.usage!.prompt_tokens).toBeGreaterThan(5);
    expect(last.usage!.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens);
  });

  it('sends scripted usage as given, and no usage chunk when usage is null or not requested', async () => {
    model.script([
      { reply: { content: 'a', usage: { prompt_tokens: 11, completion_tokens: 22 } } },
      { reply: { content: 'b', usage: null } },
      { reply: { content: 'c' } },
    ]);
    const given = await collect(
      await client.chat.completions.create({
        model: 'm',
        messages: convo(WRITER_SYSTEM, 'x'),
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(given[given.length - 1].usage).toEqual({ prompt_tokens: 11, completion_tokens: 22, total_tokens: 33 });

    const none = await collect(
      await client.chat.completions.create({
        model: 'm',
        messages: convo(WRITER_SYSTEM, 'x'),
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(contentOf(none)).toBe('b');
    expect(none.some((c) => c.usage)).toBe(false);

    const notAsked = await collect(
      await client.chat.completions.create({ model: 'm', messages: convo(WRITER_SYSTEM, 'x'), stream: true }),
    );
    expect(contentOf(notAsked)).toBe('c');
    expect(notAsked.some((c) => c.usage)).toBe(false);
  });

  it('streams reasoning first as reasoning_content', async () => {
    model.script([{ reply: { reasoning: 'Think about the harbour first.', content: 'Done.' } }]);
    const chunks = await collect(
      await client.chat.completions.create({ model: 'm', messages: convo(WRITER_SYSTEM, 'x'), stream: true }),
    );
    const deltas = chunks.map(
      (c) => c.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined,
    );
    const reasoning = deltas.map((d) => d?.reasoning_content ?? '').join('');
    expect(reasoning).toBe('Think about the harbour first.');
    const firstContent = deltas.findIndex((d) => d?.content);
    const lastReasoning = deltas.map((d) => Boolean(d?.reasoning_content)).lastIndexOf(true);
    expect(lastReasoning).toBeLessThan(firstContent);
  });

  it('streams tool calls as deltas that reassemble into the scripted calls', async () => {
    model.script([
      {
        reply: {
          content: 'Opening the file.',
          toolCalls: [
            { name: 'create_file', arguments: { type: 'draft', title: 'Chapter 3 — "The Tide"' } },
            {
              name: 'update_project',
              arguments: '{"notes":"a long note with several words in it"}',
              id: 'call_custom',
            },
          ],
        },
      },
    ]);
    const stream = client.chat.completions.stream({ model: 'm', messages: convo(WRITER_SYSTEM, 'x') });
    const rawArgFragments: string[] = [];
    stream.on('chunk', (c) => {
      for (const t of c.choices[0]?.delta.tool_calls ?? [])
        if (t.function?.arguments) rawArgFragments.push(t.function.arguments);
    });
    const final = await stream.finalChatCompletion();
    const msg = final.choices[0].message;
    expect(final.choices[0].finish_reason).toBe('tool_calls');
    expect(msg.content).toBe('Opening the file.');
    const calls = msg.tool_calls!.map((c) => (c.type === 'function' ? c : null))!;
    expect(calls.map((c) => c!.function.name)).toEqual(['create_file', 'update_project']);
    expect(JSON.parse(calls[0]!.function.arguments)).toEqual({ type: 'draft', title: 'Chapter 3 — "The Tide"' });
    expect(calls[1]!.function.arguments).toBe('{"notes":"a long note with several words in it"}');
    expect(calls[0]!.id).toMatch(/^call_[0-9a-f]{8}_0$/);
    expect(calls[1]!.id).toBe('call_custom');
    expect(rawArgFragments.length).toBeGreaterThan(4);
  });

  it('answers non-streaming requests with one chat.completion, tool calls and usage', async () => {
    model.script([
      { reply: { toolCalls: [{ name: 'create_file', arguments: { type: 'outline', title: 'Outline' } }] } },
      { reply: { content: 'Plain answer.' } },
    ]);
    const withTools = await client.chat.completions.create({
      model: 'my-model',
      messages: convo(PLANNER_SYSTEM, 'plan'),
    });
    expect(withTools.object).toBe('chat.completion');
    expect(withTools.model).toBe('my-model');
    expect(withTools.choices[0].finish_reason).toBe('tool_calls');
    expect(withTools.choices[0].message.content).toBeNull();
    const call = withTools.choices[0].message.tool_calls![0];
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
      type: 'outline',
      title: 'Outline',
    });
    expect(withTools.usage!.completion_tokens).toBeGreaterThan(0);

    const text = await client.chat.completions.create({ model: 'my-model', messages: convo(PLANNER_SYSTEM, 'plan') });
    expect(text.choices[0].finish_reason).toBe('stop');
    expect(text.choices[0].message.content).toBe('Plain answer.');
    expect(text.choices[0].message.tool_calls).toBeUndefined();
  });

  it('consumes the first entry that matches the agent, and then the one matching a substring', async () => {
    model.script([
      { match: { agent: 'planner' }, reply: { content: 'for the planner' } },
      { match: { agent: 'writer', contains: 'chapter 9' }, reply: { content: 'writer on chapter 9' } },
      { match: { agent: 'writer' }, reply: { content: 'for the writer' } },
    ]);
    const w1 = await client.chat.completions.create({ model: 'm', messages: convo(WRITER_SYSTEM, 'write chapter 2') });
    expect(w1.choices[0].message.content).toBe('for the writer');
    const w2 = await client.chat.completions.create({ model: 'm', messages: convo(WRITER_SYSTEM, 'now chapter 9') });
    expect(w2.choices[0].message.content).toBe('writer on chapter 9');
    expect(model.pendingEntries()).toBe(1);
    const p = await client.chat.completions.create({ model: 'm', messages: convo(PLANNER_SYSTEM, 'plan') });
    expect(p.choices[0].message.content).toBe('for the planner');
    expect(model.pendingEntries()).toBe(0);
  });

  it('fails loudly when the script has no matching entry: HTTP 500, recorded failure, logged error', async () => {
    model.script([{ match: { agent: 'planner' }, reply: { content: 'never used' } }]);
    const err = await client.chat.completions
      .create({ model: 'm', messages: convo(WRITER_SYSTEM, 'Write chapter 4 about the lighthouse') })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(500);
    expect((err as APIError).message).toContain('offline model script exhausted');
    expect(model.failures).toHaveLength(1);
    expect(model.failures[0]).toMatch(/^offline model script exhausted/);
    expect(model.failures[0]).toContain('writer');
    expect(model.failures[0]).toContain('Write chapter 4 about the lighthouse');
    expect(errors.map((a) => String(a[0]))).toEqual([model.failures[0]]);
    // The unmatched entry is still there; the request was still recorded.
    expect(model.pendingEntries()).toBe(1);
    expect(model.requests).toHaveLength(1);
  });

  it('stays scripted after the script runs out: the next request fails instead of falling back to the persona', async () => {
    model.script([{ reply: { content: 'only one' } }]);
    await client.chat.completions.create({ model: 'm', messages: convo(WRITER_SYSTEM, 'x') });
    await expect(
      client.chat.completions.create({ model: 'm', messages: convo(WRITER_SYSTEM, 'x') }),
    ).rejects.toMatchObject({ status: 500 });
    expect(model.failures).toHaveLength(1);
    model.reset();
    expect(model.failures).toHaveLength(0);
    const persona = await client.chat.completions.create({
      model: 'm',
      messages: convo(WRITER_SYSTEM, 'write chapter 2'),
    });
    expect(persona.choices[0].message.tool_calls).toHaveLength(1);
  });

  it('answers a scripted error entry with the OpenAI error shape and status', async () => {
    model.script([{ error: { status: 429, message: 'slow down' } }]);
    const err = (await client.chat.completions
      .create({ model: 'm', messages: convo(WRITER_SYSTEM, 'x') })
      .catch((e: unknown) => e)) as APIError;
    expect(err).toBeInstanceOf(APIError);
    expect(err.status).toBe(429);
    expect(err.error).toMatchObject({ message: 'slow down', type: 'rate_limit_error' });
  });

  it('records every request with its agent and parsed body, in order', async () => {
    model.script([{ reply: { content: 'one' } }, { reply: { content: 'two' } }]);
    const tools = [
      { type: 'function' as const, function: { name: 'create_file', parameters: { type: 'object', properties: {} } } },
    ];
    await client.chat.completions.create({ model: 'm', messages: convo(PLANNER_SYSTEM, 'first'), tools });
    await collect(
      await client.chat.completions.create({
        model: 'm',
        messages: convo(WRITER_SYSTEM, 'second'),
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const recorded = await model.waitForRequests(2, 1000);
    expect(recorded.map((r) => r.agent)).toEqual(['planner', 'writer']);
    expect(recorded[0].body.messages[1]).toMatchObject({ role: 'user', content: 'first' });
    expect(recorded[0].body.tools![0].function.name).toBe('create_file');
    expect(recorded[1].body.stream).toBe(true);
    expect(recorded[1].body.stream_options).toEqual({ include_usage: true });
    expect(recorded[1].at).toBeGreaterThanOrEqual(recorded[0].at);
  });

  it('waitForRequests rejects when too few requests arrive', async () => {
    await expect(model.waitForRequests(1, 50)).rejects.toThrow(/waited 50 ms for 1 requests, got 0/);
  });

  it('rejects malformed requests with 400 and a malformed script entry with a throw', async () => {
    const res = await fetch(`${model.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm' }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('messages');
    const bad = await fetch(`${model.baseURL}/chat/completions`, { method: 'POST', body: '{not json' });
    expect(bad.status).toBe(400);
    expect(model.requests).toHaveLength(0);

    expect(() => model.script([{ reply: { contnet: 'typo' } } as never])).toThrow(/script entry 0 is invalid/);
  });

  it('lists the one offline model', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['scriptorium-offline']);
  });

  it('gives the same bytes for the same request', async () => {
    const body = JSON.stringify({
      model: 'm',
      messages: convo(WRITER_SYSTEM, 'Write chapter 5'),
      stream: true,
      stream_options: { include_usage: true },
    });
    const raw = async () => (await fetch(`${model.baseURL}/chat/completions`, { method: 'POST', body })).text();
    const first = await raw();
    const second = await raw();
    expect(first).toContain('data: [DONE]');
    expect(first).toContain('"name":"create_file"');
    expect(second).toBe(first);
  });
});

describe('offline model timing and cancellation', () => {
  let model: OfflineModel;
  let client: OpenAI;

  beforeAll(async () => {
    model = await startOfflineModel({ logger: { info: () => undefined, error: () => undefined } });
    client = new OpenAI({ baseURL: model.baseURL, apiKey: 'offline', maxRetries: 0 });
  });

  afterAll(async () => {
    await model.close();
  });

  beforeEach(() => model.reset());

  it('waits ttftMs before the first token and paces tokens at tokensPerSecond', async () => {
    const content = Array.from({ length: 21 }, (_, i) => `w${i}`).join(' '); // 21 pieces
    model.script([{ reply: { content }, ttftMs: 150, tokensPerSecond: 100 }]);
    const started = performance.now();
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: convo(WRITER_SYSTEM, 'x'),
      stream: true,
    });
    let firstToken = 0;
    let text = '';
    for await (const c of stream) {
      const piece = c.choices[0]?.delta.content;
      if (piece && !firstToken) firstToken = performance.now();
      text += piece ?? '';
    }
    const ended = performance.now();
    expect(text).toBe(content);
    expect(firstToken - started).toBeGreaterThanOrEqual(140);
    // 20 gaps of 10 ms after the first token. Measured from the request, not from the first
    // token this client read: a client the machine runs late reads the paced tokens in a burst.
    expect(ended - started).toBeGreaterThanOrEqual(150 + 180);
    expect(ended - started).toBeLessThan(2000);
  });

  it('default timing (setTiming) applies to the persona too', async () => {
    model.setTiming({ ttftMs: 120, tokensPerSecond: 1e6 });
    const started = performance.now();
    await client.chat.completions.create({ model: 'm', messages: convo(WRITER_SYSTEM, 'write chapter 1') });
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    model.setTiming({ ttftMs: 0 });
    const again = performance.now();
    await client.chat.completions.create({ model: 'm', messages: convo(WRITER_SYSTEM, 'write chapter 1') });
    expect(performance.now() - again).toBeLessThan(100);
  });

  it('stalls after the given characters and stops promptly when the client aborts', async () => {
    model.script([
      {
        reply: { content: 'Hello there, this sentence never finishes streaming.' },
        stallAfterChars: 12,
        ttftMs: 0,
        tokensPerSecond: 1e6,
      },
    ]);
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'm', messages: convo(WRITER_SYSTEM, 'x'), stream: true },
      { signal: controller.signal },
    );
    let text = '';
    let abortedAt = 0;
    const reading = (async () => {
      for await (const c of stream) {
        text += c.choices[0]?.delta.content ?? '';
        if (text === 'Hello there,')
          setTimeout(() => {
            abortedAt = performance.now();
            controller.abort();
          }, 50);
      }
    })();
    // The openai client ends the iteration quietly on an abort of its own signal.
    await reading;
    expect(controller.signal.aborted).toBe(true);
    expect(performance.now() - abortedAt).toBeLessThan(500);
    expect(text).toBe('Hello there,');
    // The server side lets go of the response too.
    const deadline = performance.now() + 1000;
    while (model.activeResponses() > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(model.activeResponses()).toBe(0);
  });

  it('stops pacing a long stream as soon as the client goes away, mid-wait', async () => {
    const content = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    model.script([{ reply: { content }, ttftMs: 0, tokensPerSecond: 2 }]); // 500 ms between pieces, 20 s in all
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'm', messages: convo(WRITER_SYSTEM, 'x'), stream: true },
      { signal: controller.signal },
    );
    let pieces = 0;
    for await (const c of stream) {
      if (c.choices[0]?.delta.content && ++pieces === 1) controller.abort();
    }
    expect(pieces).toBe(1);
    const t0 = performance.now();
    while (model.activeResponses() > 0 && performance.now() - t0 < 2000) await new Promise((r) => setTimeout(r, 5));
    expect(model.activeResponses()).toBe(0);
    // Well inside the 500 ms the server would otherwise sleep before the next piece.
    expect(performance.now() - t0).toBeLessThan(250);
  });
});
