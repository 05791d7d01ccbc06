/**
 * parallel_execute on real services: sub-tasks run as parallel activities (timed with a
 * test-only stall in each), results come back together in task order, reads reach the
 * breadcrumb and the read snapshots, the history replays, read-only turns refuse the whole
 * batch, the failure breaker counts sub-task failures, and the 3-skill cap holds under
 * concurrent skill reads.
 */
import { Worker } from '@temporalio/worker';
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
  testBundle,
} from '../helpers/harness';
import { call, ofType, router, say, words } from '../helpers/script';
import { skillZip } from '../helpers/skill-zips';

const STALL_MS = 1500;
const intervals: { index: number; start: number; end: number }[] = [];

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    // A small context budget: long chapters only appear truncated there, so their read snapshots come from the batch.
    config: { REVIEW_WORD_THRESHOLD: '5000', AGENT_CONTEXT_TOKEN_BUDGET: '1000' },
    faults: {
      hit: () => undefined,
      // The "slow tool": each sub-task stalls, so running one after another would take 3 stalls.
      async pause(point, info) {
        if (point !== 'tool.parallel_task') return;
        const start = Date.now();
        await new Promise((r) => setTimeout(r, STALL_MS));
        intervals.push({ index: info.index as number, start, end: Date.now() });
      },
    },
  });
});
afterAll(async () => h?.close());
afterEach(() => {
  intervals.length = 0;
  expectScriptFullyUsed(h);
});

async function authorFile(projectId: string, title: string, content: string): Promise<string> {
  const r = await api<{ id: string }>(h, 'POST', '/api/v1/files', { projectId, type: 'draft', title, content });
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  return r.body.id;
}

async function toolResults(turnId: string): Promise<Record<string, unknown>[]> {
  const steps = await h.runtime.models.AgentStep.find({ turnId }).sort({ step: 1 }).lean();
  return steps.flatMap((s) =>
    s.toolCalls.map(
      (c) => JSON.parse(s.toolResults.find((r) => r.toolCallId === c.id)?.content ?? 'null') as Record<string, unknown>,
    ),
  );
}

test('sub-tasks run concurrently and come back together in task order; reads reach breadcrumbs and read snapshots; the history replays', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const twoText = `Fog rolled over the harbour.\n${words(1500, 'mist')}`;
  const one = await authorFile(projectId, 'Chapter 1', `The lighthouse keeper counted ships.\n${words(1500, 'wave')}`);
  const two = await authorFile(projectId, 'Chapter 2', twoText);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'parallel_execute', {
      tasks: [
        { tool: 'query_files', arguments: { id: two } },
        { tool: 'query_files', arguments: { query: 'lighthouse' } },
        { tool: 'query_files', arguments: { id: one } },
      ],
    }),
    say('writer', 'Both chapters read.'),
  ]);
  const r = await runTurn(h, sessionId, 'Read chapters 1 and 2 and compare them');

  // Concurrency: every stall began before any ended.
  expect(intervals).toHaveLength(3);
  expect(Math.max(...intervals.map((i) => i.start))).toBeLessThan(Math.min(...intervals.map((i) => i.end)));

  const [batch] = await toolResults(r.turnId);
  const results = batch!.results as Record<string, unknown>[];
  expect(results.map((x) => [x.task, x.tool, x.ok, x.title ?? null])).toEqual([
    [0, 'query_files', true, 'Chapter 2'],
    [1, 'query_files', true, null],
    [2, 'query_files', true, 'Chapter 1'],
  ]);
  expect(results[0]!.content).toBe(twoText);
  expect(results[1]!.results).toEqual([expect.objectContaining({ id: one, title: 'Chapter 1' })]);

  const card = ofType(r.events, 'tool_result').find((e) => e.data.name === 'parallel_execute')!;
  expect(card.data).toMatchObject({
    ok: true,
    result: { tasks: [{ tool: 'query_files', ok: true, id: two }, { found: 1 }, { id: one }] },
  });
  expect(JSON.stringify(card.data)).not.toContain('Fog rolled');

  const msg = await h.runtime.models.Message.findOne({ turnId: r.turnId, role: 'assistant' }).lean();
  expect(msg?.breadcrumb.map((b) => [b.op, b.fileId])).toEqual([
    ['read', two],
    ['read', one],
  ]);
  const snapshots = await h.runtime.models.ReadSnapshot.find({ turnId: r.turnId }).lean();
  expect(snapshots.map((s) => s.fileId).sort()).toEqual([one, two].sort());

  // The fan-out is one workflow task: all three sub-task activities are scheduled before any completes.
  const history = await h.runtime.temporal.workflow.getHandle(`turn-${r.turnId}`).fetchHistory();
  const events = history.events ?? [];
  const kinds = events.map((e) =>
    e.activityTaskScheduledEventAttributes?.activityType?.name === 'runParallelTask'
      ? 'S'
      : e.activityTaskCompletedEventAttributes
        ? 'C'
        : '',
  );
  const firstScheduled = kinds.indexOf('S');
  expect(kinds.slice(firstScheduled, firstScheduled + 3)).toEqual(['S', 'S', 'S']);
  await Worker.runReplayHistory(
    { workflowBundle: testBundle(), replayName: 'parallel-execute' },
    history,
    `turn-${r.turnId}`,
  );
});

test('a read-only turn refuses the whole batch, even one of only query_files, and nothing runs', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const one = await authorFile(projectId, 'Chapter 1', 'Text.');
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', read_only: true, write_content: false }),
    call('writer', 'parallel_execute', { tasks: [{ tool: 'query_files', arguments: { id: one } }] }),
    say('writer', 'I will read them one by one.'),
  ]);
  const r = await runTurn(h, sessionId, 'What do you think of chapter 1? Do not change anything.');
  const [refused] = await toolResults(r.turnId);
  expect(refused).toMatchObject({ ok: false, error_type: 'read_only_request' });
  expect(ofType(r.events, 'tool_result')[0]!.data).toMatchObject({
    name: 'parallel_execute',
    ok: false,
    errorType: 'read_only_request',
  });
  expect(intervals).toEqual([]);
  // No sub-task ran: the only stored execution is the refused batch itself.
  const executions = await h.runtime.models.ToolExecution.find({ turnId: r.turnId }).lean();
  expect(executions.map((e) => e.name)).toEqual(['parallel_execute']);
});

test('the failure breaker counts sub-task failures: three identical failing reads in a batch open the circuit', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const missing = (c: string) => ({ tool: 'query_files', arguments: { id: c.repeat(24) } });
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'parallel_execute', { tasks: [missing('a'), missing('b'), missing('d')] }),
  ]);
  const r = await runTurn(h, sessionId, 'Read those chapters');
  const [batch] = await toolResults(r.turnId);
  expect((batch!.results as { error_type: string }[]).map((x) => x.error_type)).toEqual([
    'not_found',
    'not_found',
    'not_found',
  ]);
  expect(r.outcome).toMatchObject({ status: 'failed', stopReason: 'tool_failure_circuit_open' });
});

test('a batch may only hold reading tools with valid arguments; otherwise it is refused whole', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'parallel_execute', { tasks: [{ tool: 'create_file', arguments: { type: 'draft', title: 'x' } }] }),
    call('writer', 'parallel_execute', { tasks: [{ tool: 'query_files', arguments: { id: 'nope' } }] }),
    say('writer', 'OK.'),
  ]);
  const r = await runTurn(h, sessionId, 'Read things');
  const res = await toolResults(r.turnId);
  expect(res.map((x) => x.error_type)).toEqual(['invalid_arguments', 'invalid_arguments']);
  expect(String(res[1]!.message)).toContain('tasks.0.arguments.id');
  expect(intervals).toEqual([]);
});

test('skill readers in one batch share the 3-skill cap: four concurrent loads, exactly three granted', async () => {
  for (const n of [1, 2, 3, 4]) {
    const res = await fetch(`${h.baseUrl}/api/v1/skills/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: await skillZip(`k${n}`, `Skill ${n}`, `Method ${n}.`),
    });
    expect(res.status).toBe(201);
  }
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'parallel_execute', {
      tasks: [1, 2, 3, 4].map((n) => ({ tool: 'load_skill', arguments: { skill: `k${n}` } })),
    }),
    say('writer', 'Loaded what I could.'),
  ]);
  const r = await runTurn(h, sessionId, 'Load all my skills');
  const [batch] = await toolResults(r.turnId);
  const results = batch!.results as { ok: boolean; error_type?: string }[];
  expect(results.filter((x) => x.ok)).toHaveLength(3);
  expect(results.filter((x) => !x.ok).map((x) => x.error_type)).toEqual(['skill_limit_reached']);
  const budget = await h.runtime.models.SkillBudget.findById(r.turnId).lean();
  expect(budget?.skillIds).toHaveLength(3);
  await h.runtime.models.Skill.deleteMany({});
});
