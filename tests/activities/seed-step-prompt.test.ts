/**
 * What a step's prompt carries from the session and the turn, as a step really builds it on the
 * real MongoDB-wire server: the newest history within AGENT_CHAT_HISTORY_TOKEN_BUDGET, nothing
 * summarised; the "[earlier tool operations]" line at the end of an earlier reply; the author's
 * quoted passages; earlier agents' chat text (not their tool calls); and the task board, with a
 * range task's progress, in a continuation round. Also: a task board saved again keeps what the
 * stored one recorded for the same task.
 */
import type OpenAI from 'openai';
import { assembleTurnContext, type ContextSettings } from '../../src/activities/context';
import { buildAgentMessages } from '../../src/activities/step/agent-messages';
import { updateProject } from '../../src/activities/tools/project-tools';
import { createWorkerCaches } from '../../src/activities/worker-caches';
import { finalizeBoard } from '../../src/core/book/task-board-rules';
import type { WorkAgent } from '../../src/core/plans';
import { stepId } from '../../src/core/turn/record-ids';
import type { LlmStepInput } from '../../src/core/turn/turn-types';
import { buildPacket } from '../../src/workflows/packets';
import { useScratchDb } from '../helpers/scratch-db';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const db = useScratchDb('seedstep');

const settings = (over: Partial<ContextSettings> = {}): ContextSettings => ({
  contextTokens: 32_000,
  historyTokens: 32_000,
  ledgerCeiling: 160_000,
  workingSetMaxFiles: 8,
  workingSetMaxChars: 60_000,
  ...over,
});

async function newTurn(projectId: string, message: string, over: { quotes?: string[] } = {}) {
  const t = await db.models.Turn.create({
    sessionId: `s-${projectId}`,
    projectId,
    ownerId: 'u1',
    message,
    workflowId: 'direct',
    ...over,
  });
  return String(t._id);
}

let seq = 0;
async function addMessage(
  projectId: string,
  role: 'user' | 'assistant',
  content: string,
  breadcrumb: { op: string; fileId: string; title: string }[] = [],
) {
  seq += 1;
  await db.models.Message.create({
    sessionId: `s-${projectId}`,
    projectId,
    turnId: `earlier-${seq}`,
    role,
    agent: role === 'assistant' ? 'writer' : null,
    content,
    breadcrumb,
    seq,
    key: `${projectId}:m${seq}`,
  });
}

const step = (turnId: string, over: Partial<LlmStepInput> = {}): LlmStepInput => ({
  turnId,
  run: 1,
  step: 1,
  agent: 'writer',
  runTools: { flags: { readOnly: false, clarifyFirst: false } },
  slot: 1,
  runKind: 'initial',
  packet: null,
  language: 'en',
  scope: { scope: 'the next scene', writeContent: true, readOnly: false, clarifyFirst: false, remainingPlan: [] },
  pendingFileId: null,
  holdChat: false,
  steering: [],
  prelude: [],
  ...over,
});

const prompt = (turnId: string, over: Partial<LlmStepInput> = {}, s: ContextSettings = settings()) =>
  buildAgentMessages(db.models, createWorkerCaches(), step(turnId, over), s);

const text = (m: ChatMessage): string => (typeof m.content === 'string' ? m.content : '');

/** A session of `pairs` exchanges: "Author asked thing i" / "Writer said thing i", oldest first. */
async function sessionWith(pairs: number): Promise<string> {
  const projectId = await db.newProject();
  for (let i = 1; i <= pairs; i++) {
    await addMessage(projectId, 'user', `Author asked thing ${i}: ${'more detail about the harbour '.repeat(3)}`);
    await addMessage(projectId, 'assistant', `Writer said thing ${i}: ${'a reply about the lanterns '.repeat(3)}`);
  }
  return projectId;
}

/** The session history as the step sent it: the earlier messages, in the order sent. */
const historySent = (messages: ChatMessage[]): string[] =>
  messages.map(text).filter((c) => /^(Author asked|Writer said) thing \d+/.test(c));

describe('the history window: the newest messages within AGENT_CHAT_HISTORY_TOKEN_BUDGET, nothing summarised', () => {
  test('with room for the whole session, every message is sent as stored, oldest first', async () => {
    const projectId = await sessionWith(6);
    const turnId = await newTurn(projectId, 'Write the next scene.');
    const { messages, ledger } = await prompt(turnId);
    const sent = historySent(messages);
    expect(sent).toHaveLength(12);
    expect(sent[0]).toMatch(/^Author asked thing 1:/);
    expect(sent[11]).toMatch(/^Writer said thing 6:/);
    expect(ledger.historyMessages).toBe(12);
  });

  test('a budget smaller than the session keeps the newest messages whole and drops the oldest', async () => {
    const projectId = await sessionWith(12);
    const turnId = await newTurn(projectId, 'Write the next scene.');
    const whole = await prompt(turnId);
    expect(historySent(whole.messages)).toHaveLength(24);
    const perMessage = whole.ledger.history / 24;
    // Room for about five of the 24 messages.
    const budget = Math.floor(perMessage * 5.5);
    const { messages, ledger } = await prompt(turnId, {}, settings({ historyTokens: budget }));
    const sent = historySent(messages);
    expect(sent.length).toBeGreaterThanOrEqual(4);
    expect(sent.length).toBeLessThan(24);
    expect(ledger.history).toBeLessThanOrEqual(budget);
    expect(ledger.historyMessages).toBe(sent.length);
    // The newest ones, in their order, each exactly as stored (a window, not a summary).
    const stored = historySent(whole.messages);
    expect(sent).toEqual(stored.slice(-sent.length));
    expect(sent[sent.length - 1]).toMatch(/^Writer said thing 12:/);
    expect(sent.some((c) => c.startsWith('Author asked thing 1:'))).toBe(false);
    const all = messages.map(text).join('\n');
    expect(all).not.toMatch(/thing 1:/);
    // The turn's stored context keeps only that window too: newest first, within the budget.
    const kept = await assembleTurnContext(
      db.models,
      createWorkerCaches(),
      settings({ historyTokens: budget }),
      turnId,
      '',
    );
    expect(kept.history.reduce((n, m) => n + m.tokens!, 0)).toBeLessThanOrEqual(budget);
    expect(kept.history.map((m) => m.content).reverse()).toEqual(sent);
  });

  test('the ledger ceiling takes from the same end: the oldest go first', async () => {
    const projectId = await sessionWith(12);
    const turnId = await newTurn(projectId, 'Write the next scene.');
    const whole = await prompt(turnId);
    const perMessage = whole.ledger.history / 24;
    const ceiling = whole.ledger.fixed + Math.floor(perMessage * 3.5);
    const { messages } = await prompt(turnId, {}, settings({ ledgerCeiling: ceiling }));
    const sent = historySent(messages);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.length).toBeLessThan(24);
    expect(sent).toEqual(historySent(whole.messages).slice(-sent.length));
  });
});

describe("the breadcrumb: an earlier reply's tool operations, at its end in a later turn's history", () => {
  test('"[earlier tool operations]" lists what the reply created and edited, by title and id', async () => {
    const projectId = await db.newProject();
    const draftId = 'd'.repeat(24);
    const outlineId = 'o'.repeat(24);
    await addMessage(projectId, 'user', 'Write chapter 1.');
    await addMessage(projectId, 'assistant', 'Chapter 1 is written.', [
      { op: 'created', fileId: draftId, title: 'Chapter 1' },
      { op: 'edited', fileId: outlineId, title: 'Outline' },
    ]);
    await addMessage(projectId, 'assistant', 'Nothing to add.');
    const turnId = await newTurn(projectId, 'Now chapter 2.');
    const { messages } = await prompt(turnId);
    const replies = messages.filter((m) => m.role === 'assistant').map(text);
    expect(replies).toContain(
      `Chapter 1 is written.\n\n[earlier tool operations] created "Chapter 1" (id=${draftId}); edited "Outline" (id=${outlineId})`,
    );
    // A reply without tool operations has no such line.
    expect(replies).toContain('Nothing to add.');
  });
});

describe("the author's quoted passages", () => {
  test.each(['writer', 'planner', 'quality_reviewer'] as WorkAgent[])(
    'are in the %s prompt, each as a quote, under their own heading',
    async (agent) => {
      const projectId = await db.newProject();
      const quotes = ['"The sea does not forgive," Mara said.', 'The lanterns went out one by one.'];
      const turnId = await newTurn(projectId, 'Make these two lines sharper.', { quotes });
      const { messages } = await prompt(turnId, { agent });
      const all = messages.map(text).join('\n');
      expect(all).toContain(`## Passages the author quoted\n> ${quotes[0]}\n> ${quotes[1]}`);
    },
  );

  test('a turn without quotes has no such heading', async () => {
    const projectId = await db.newProject();
    const turnId = await newTurn(projectId, 'Write the next scene.');
    const { messages } = await prompt(turnId);
    expect(messages.map(text).join('\n')).not.toContain('Passages the author quoted');
  });
});

describe("a later agent gets the earlier agents' chat text, not their tool calls", () => {
  test("the writer after the planner reads the planner's text, then its packet; the planner's tool loop stays the planner's", async () => {
    const projectId = await db.newProject();
    const turnId = await newTurn(projectId, 'Plan the book, then write chapter 1.');
    const callArgs = JSON.stringify({ type: 'outline', title: 'Outline', content: 'Chapter 1: the harbour.' });
    await db.models.AgentStep.create({
      _id: stepId(turnId, 1),
      turnId,
      run: 1,
      step: 1,
      agent: 'planner',
      text: '',
      rawContent: '',
      toolCalls: [{ id: 'call-1', name: 'create_file', arguments: callArgs }],
      toolResults: [{ toolCallId: 'call-1', content: '{"ok":true,"id":"planner-secret-result"}' }],
    });
    await db.models.AgentStep.create({
      _id: stepId(turnId, 2),
      turnId,
      run: 1,
      step: 2,
      agent: 'planner',
      text: 'The outline is saved.',
      rawContent: 'The outline is saved.',
    });
    const packet = buildPacket({
      from: 'planner',
      to: 'writer',
      kind: 'planned',
      scope: 'chapter 1',
      note: 'write chapter 1',
      delivered: [{ fileId: 'o'.repeat(24), title: 'Outline', type: 'outline' }],
    });
    const { messages } = await prompt(turnId, { run: 2, step: 3, agent: 'writer', runKind: 'planned', packet });
    const userAt = messages.findIndex((m) => m.role === 'user' && text(m).includes('Plan the book'));
    const after = messages.slice(userAt + 1);
    expect(after).toEqual([
      { role: 'assistant', content: '[planner] The outline is saved.' },
      { role: 'user', content: packet },
    ]);
    const all = JSON.stringify(messages);
    expect(all).not.toContain('planner-secret-result');
    expect(all).not.toContain('call-1');
    expect(messages.some((m) => m.role === 'tool')).toBe(false);
  });
});

describe('the task board in every step, a continuation round included', () => {
  test("the unfinished tasks, with a range task's progress, reach the writer's continuation round", async () => {
    const projectId = await db.newProject();
    const board = finalizeBoard(
      [
        { id: 't1', title: '写大纲', status: 'done' },
        { id: 't2', title: '写第2-5集', status: 'in_progress' },
        { id: 't3', title: '写第6集', status: 'todo' },
      ],
      { written: [2, 3].map((n) => ({ title: `第${n}集`, body: true })), liveUnits: new Set([2, 3]) },
    );
    expect(board.tasks[1]).toMatchObject({ status: 'in_progress', doneUnits: [2, 3] });
    await db.models.Project.updateOne({ _id: projectId }, { $set: { tasks: board.tasks } });
    const turnId = await newTurn(projectId, '写第2到5集');
    const packet = buildPacket({
      from: 'writer',
      to: 'writer',
      kind: 'continuation',
      scope: '第2-5集',
      note: '',
      delivered: [{ fileId: 'e'.repeat(24), title: '第3集', type: 'script' }],
    });
    const { messages } = await prompt(turnId, { run: 2, step: 4, runKind: 'continuation', packet });
    expect(messages.map(text)).toContain(packet);
    const all = messages.map(text).join('\n');
    expect(all).toContain(
      'Task board:\n- [done] 写大纲\n- [in_progress] 写第2-5集 (2/4 written: 2, 3)\n- [todo] 写第6集',
    );
  });
});

describe('a task board saved again keeps what the stored board recorded', () => {
  async function projectWithRangeTask() {
    const projectId = await db.newProject();
    await db.models.Project.updateOne(
      { _id: projectId },
      {
        $set: {
          tasks: [
            { id: 't2', title: '写第2-5集', status: 'in_progress', doneUnits: [2, 3], progress: '2/4 written: 2, 3' },
            { id: 't9', title: 'Polish the prologue', status: 'todo' },
          ],
        },
      },
    );
    return projectId;
  }
  const save = (
    projectId: string,
    key: string,
    tasks: { id: string; title: string; status: 'todo' | 'in_progress' }[],
  ) => updateProject(db.plannerContext(projectId, 'Plan the rest.', key), { tasks });
  const tasksOf = async (projectId: string) =>
    (await db.models.Project.findById(projectId).lean())!.tasks.map((t) => ({
      id: t.id,
      title: t.title,
      doneUnits: t.doneUnits ?? null,
      progress: t.progress ?? null,
    }));

  test('by the same title under another id, and by the same id under another title', async () => {
    const projectId = await projectWithRangeTask();
    const r = await save(projectId, 'k1:1:c1', [
      { id: 'episodes-2-5', title: ' 写第2-5集 ', status: 'in_progress' },
      { id: 't9', title: 'Polish the prologue and epilogue', status: 'todo' },
      { id: 'new', title: '写第6集', status: 'todo' },
    ]);
    expect(r.outcome).toMatchObject({ ok: true });
    expect(await tasksOf(projectId)).toEqual([
      { id: 'episodes-2-5', title: ' 写第2-5集 ', doneUnits: [2, 3], progress: '2/4 written: 2, 3' },
      { id: 't9', title: 'Polish the prologue and epilogue', doneUnits: null, progress: null },
      { id: 'new', title: '写第6集', doneUnits: null, progress: null },
    ]);
    const byId = await projectWithRangeTask();
    await save(byId, 'k2:1:c1', [{ id: 't2', title: 'Episodes two to five', status: 'in_progress' }]);
    expect(await tasksOf(byId)).toEqual([
      { id: 't2', title: 'Episodes two to five', doneUnits: [2, 3], progress: '2/4 written: 2, 3' },
    ]);
  });
});
