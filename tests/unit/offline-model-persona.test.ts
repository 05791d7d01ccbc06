/**
 * The offline model's default persona over real HTTP: what a demo turn sees from each
 * role when no test scripted the model.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import {
  agentHeader,
  FILE_STREAM_CONTINUATION_MARKER,
  HANDOFF_PACKET_MARKER,
  REVIEW_EVIDENCE_MARKER,
} from '../../src/core/model/markers';
import type { AgentName } from '../../src/core/events';
import { startOfflineModel, type OfflineModel } from '../../src/offline-model';
import { countWords } from '../../src/core/text';

const TOOLS: ChatCompletionTool[] = ['create_file', 'edit_file', 'query_files'].map((name) => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties: {} } },
}));

const system = (agent: AgentName): ChatCompletionMessageParam => ({
  role: 'system',
  content: `${agentHeader(agent)}\nInstructions follow.`,
});

/** The conversation after the persona's create_file call was answered. */
function afterCreate(agent: AgentName, user: string, toolResult: string, args: string): ChatCompletionMessageParam[] {
  return [
    system(agent),
    { role: 'user', content: user },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'create_file', arguments: args } }],
    },
    { role: 'tool', tool_call_id: 'call_a', content: toolResult },
  ];
}

const FILE_BLOCK = /^(.*)\n<file>\n([\s\S]*)\n<\/file>$/;

describe('offline model persona', () => {
  let model: OfflineModel;
  let client: OpenAI;

  beforeAll(async () => {
    model = await startOfflineModel({ ttftMs: 0, tokensPerSecond: 1e6, persona: { chapterWords: 400 } });
    client = new OpenAI({ baseURL: model.baseURL, apiKey: 'offline', maxRetries: 0 });
  });

  afterAll(async () => {
    await model.close();
  });

  beforeEach(() => model.reset());

  async function route(userMessage: string) {
    const res = await client.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'system', content: agentHeader('router') },
        { role: 'user', content: userMessage },
      ],
    });
    const content = res.choices[0].message.content!;
    expect(content.trim().startsWith('{')).toBe(true);
    return JSON.parse(content) as Record<string, unknown>;
  }

  it('router answers one JSON object with every routing field, reading only the [user message] part', async () => {
    const decision = await route(
      '[previous assistant ending]\nShall I review the draft?\n[previous routing]\n{"current_agent":"quality_reviewer","workflow_plan":"review_only"}\n[user message]\nWrite chapter 3 now',
    );
    expect(decision).toEqual({
      current_agent: 'writer',
      workflow_plan: 'quick',
      workflow_agents: ['writer'],
      write_content: true,
      read_only: false,
      scope: 'Write chapter 3 now',
    });
  });

  it.each([
    ['Please review chapter 2', 'review_only', ['quality_reviewer'], false, true],
    ['帮我评一下第二章', 'review_only', ['quality_reviewer'], false, true],
    ['Outline a 30-chapter fantasy novel', 'standard', ['planner'], false, false],
    ['给这部小说做个大纲', 'standard', ['planner'], false, false],
    ['Make an outline and write chapter 1', 'standard', ['planner', 'writer'], true, false],
    ['Give me some hooks for the opening', 'hook_focus', ['hook_designer'], false, false],
    ['What is the theme of this book?', 'quick', [], false, true],
    ['这个角色为什么生气？', 'quick', [], false, true],
    ['Continue the story', 'quick', ['writer'], true, false],
    ['写第三章', 'quick', ['writer'], true, false],
  ])('routes %j to %s', async (message, plan, agents, writeContent, readOnly) => {
    const d = await route(message);
    expect(d).toMatchObject({
      workflow_plan: plan,
      workflow_agents: agents,
      write_content: writeContent,
      read_only: readOnly,
    });
    expect(typeof d.current_agent).toBe('string');
    expect((d.scope as string).length).toBeLessThanOrEqual(40);
  });

  it('writer: opens an empty draft first, then streams a <file> block of about chapterWords words ending the text', async () => {
    const user = 'Please write chapter 3, the storm scene.';
    const first = await client.chat.completions.create({
      model: 'm',
      messages: [system('writer'), { role: 'user', content: user }],
      tools: TOOLS,
    });
    const call = first.choices[0].message.tool_calls![0];
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect(call.type).toBe('function');
    if (call.type !== 'function') return;
    expect(call.function.name).toBe('create_file');
    expect(JSON.parse(call.function.arguments)).toEqual({ type: 'draft', title: 'Chapter 3' });

    const stream = await client.chat.completions.create({
      model: 'm',
      messages: afterCreate('writer', user, '{"ok":true,"file_id":"f1","title":"Chapter 3"}', call.function.arguments),
      tools: TOOLS,
      stream: true,
    });
    let text = '';
    let finish: string | null = null;
    let toolDeltas = 0;
    for await (const c of stream) {
      text += c.choices[0]?.delta.content ?? '';
      toolDeltas += c.choices[0]?.delta.tool_calls?.length ?? 0;
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('stop');
    expect(toolDeltas).toBe(0);
    const m = FILE_BLOCK.exec(text);
    expect(m).not.toBeNull();
    expect(m![1]).toContain('Chapter 3');
    const body = m![2];
    expect(body.startsWith('# Chapter 3')).toBe(true);
    expect(countWords(body)).toBeGreaterThanOrEqual(400);
    expect(countWords(body)).toBeLessThan(520);
    expect(body.split('\n\n').length).toBeGreaterThan(4); // paragraphs
    expect(body).toMatch(/"[^"]+," \w+ (said|asked|whispered)/); // dialogue
  });

  it('writer in Chinese: 第N章 in the title, Chinese prose counted in characters', async () => {
    const user = '请写第五章';
    const first = await client.chat.completions.create({
      model: 'm',
      messages: [system('writer'), { role: 'user', content: user }],
      tools: TOOLS,
    });
    const call = first.choices[0].message.tool_calls![0];
    if (call.type !== 'function') throw new Error('expected a function call');
    expect(JSON.parse(call.function.arguments)).toEqual({ type: 'draft', title: '第5章' });
    const second = await client.chat.completions.create({
      model: 'm',
      messages: afterCreate('writer', user, '{"ok":true}', call.function.arguments),
      tools: TOOLS,
    });
    const m = FILE_BLOCK.exec(second.choices[0].message.content!);
    expect(m).not.toBeNull();
    expect(m![2].startsWith('# 第5章')).toBe(true);
    expect(m![2]).toMatch(/[\u4e00-\u9fff]{8}/);
    expect(countWords(m![2])).toBeGreaterThanOrEqual(400);
  });

  it('writer takes the chapter title from an outline in its context', async () => {
    const user = `${HANDOFF_PACKET_MARKER}\nOutline:\nChapter 1: Arrival — x\nChapter 2: The Drowned Bell — y\n[user message]\nwrite chapter 2`;
    const res = await client.chat.completions.create({
      model: 'm',
      messages: afterCreate('writer', user, '{"ok":true}', '{}'),
      tools: TOOLS,
    });
    expect(res.choices[0].message.content).toContain('# Chapter 2: The Drowned Bell');
  });

  it('planner: create_file outline without content, then a ten-chapter outline in a <file> block', async () => {
    const user = 'Plan a mystery novel set in a harbour town';
    const first = await client.chat.completions.create({
      model: 'm',
      messages: [system('planner'), { role: 'user', content: user }],
      tools: TOOLS,
    });
    const call = first.choices[0].message.tool_calls![0];
    if (call.type !== 'function') throw new Error('expected a function call');
    const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
    expect(args).toEqual({ type: 'outline', title: 'Outline' });
    expect(args).not.toHaveProperty('content');

    const second = await client.chat.completions.create({
      model: 'm',
      messages: afterCreate('planner', user, '{"ok":true}', call.function.arguments),
      tools: TOOLS,
    });
    const m = FILE_BLOCK.exec(second.choices[0].message.content!);
    expect(m).not.toBeNull();
    const entries = m![2].split('\n').filter((l) => /^Chapter \d+: /.test(l));
    expect(entries.map((l) => Number(/^Chapter (\d+)/.exec(l)![1]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('hook designer: a setting file of opening hooks', async () => {
    const user = '开篇需要更抓人的钩子';
    const first = await client.chat.completions.create({
      model: 'm',
      messages: [system('hook_designer'), { role: 'user', content: user }],
      tools: TOOLS,
    });
    const call = first.choices[0].message.tool_calls![0];
    if (call.type !== 'function') throw new Error('expected a function call');
    expect(JSON.parse(call.function.arguments)).toEqual({ type: 'setting', title: '开篇钩子' });
    const second = await client.chat.completions.create({
      model: 'm',
      messages: afterCreate('hook_designer', user, '{"ok":true}', call.function.arguments),
      tools: TOOLS,
    });
    const m = FILE_BLOCK.exec(second.choices[0].message.content!);
    expect(m![2].split('\n').filter((l) => /^\d\. /.test(l))).toHaveLength(3);
  });

  it('continuation round: a short summary and no tool calls', async () => {
    const packet = `${FILE_STREAM_CONTINUATION_MARKER}\nSaved:\n<file>\none two three four five\n</file>\n[author scope]\nwrite chapter 7`;
    const res = await client.chat.completions.create({
      model: 'm',
      messages: [system('writer'), { role: 'user', content: packet }],
      tools: TOOLS,
    });
    expect(res.choices[0].message.tool_calls).toBeUndefined();
    expect(res.choices[0].message.content).toBe(
      'Chapter 7 is saved (5 words). I can revise it, or continue with Chapter 8.',
    );
  });

  it('a failed create_file is reported in the author’s words (never its error code or message), not retried', async () => {
    const answer = async (user: string, result: string) =>
      (
        await client.chat.completions.create({
          model: 'm',
          messages: afterCreate('writer', user, result, '{}'),
          tools: TOOLS,
        })
      ).choices[0].message;
    const readOnly = await answer(
      'write chapter 1',
      '{"ok":false,"error_type":"read_only_request","message":"read-only turn"}',
    );
    expect(readOnly.tool_calls).toBeUndefined();
    expect(readOnly.content).toBe('You asked for no changes this time, so I did not create "Chapter 1".');
    const exists = await answer(
      '写第二章',
      '{"ok":false,"error_type":"file_exists","message":"\\"第2章\\" already exists here (id=65a1b2c3d4e5f60718293a4b, draft)","id":"65a1b2c3d4e5f60718293a4b"}',
    );
    expect(exists.content).toBe('《第2章》已经存在，所以没有重复创建。可以让我修改它，或者推倒重写。');
    const other = await answer(
      'write chapter 3',
      '{"ok":false,"error_type":"invalid_parent","message":"65a1b2c3d4e5f60718293a4b is not a folder"}',
    );
    expect(other.content).toBe('I could not create "Chapter 3", so nothing was written this time.');
  });

  it('without create_file among the tools the writer answers in chat', async () => {
    const res = await client.chat.completions.create({
      model: 'm',
      messages: [system('writer'), { role: 'user', content: 'write chapter 1' }],
      tools: TOOLS.filter((t) => t.type === 'function' && t.function.name !== 'create_file'),
    });
    expect(res.choices[0].message.tool_calls).toBeUndefined();
    expect(res.choices[0].message.content).toMatch(/can't create files/);
  });

  it('quality reviewer: a verdict line and three notes, revise only on short evidence', async () => {
    const review = async (evidence: string) =>
      (
        await client.chat.completions.create({
          model: 'm',
          messages: [
            system('quality_reviewer'),
            { role: 'user', content: `Review the draft.\n${REVIEW_EVIDENCE_MARKER}\n${evidence}` },
          ],
        })
      ).choices[0].message;
    const pass = await review('word count: 1200\nrequired: at least 1000 words');
    expect(pass.tool_calls).toBeUndefined();
    expect(pass.content!.split('\n')[0]).toBe('Verdict: pass');
    expect(pass.content!.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(3);
    const revise = await review('word count: 300\nrequired: at least 2000 words');
    expect(revise.content!.split('\n')[0]).toBe('Verdict: revise');
  });

  it('is deterministic: the same request gives the same answer', async () => {
    const messages = afterCreate('writer', 'write chapter 4', '{"ok":true}', '{}');
    const a = await client.chat.completions.create({ model: 'm', messages, tools: TOOLS });
    const b = await client.chat.completions.create({ model: 'm', messages, tools: TOOLS });
    expect(b).toEqual(a);
    const other = await client.chat.completions.create({
      model: 'm',
      messages: afterCreate('writer', 'write chapter 5', '{"ok":true}', '{}'),
      tools: TOOLS,
    });
    expect(other.choices[0].message.content).not.toBe(a.choices[0].message.content);
  });
});
