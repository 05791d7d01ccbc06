/**
 * A step that runs its tool calls (src/activities/step/llm.ts, step-tools.ts): it records its model
 * call's usage beside its answer, not before it — the calls do not wait for the usage record,
 * and a step retried after its answer went on record writes the usage record if it had not
 * landed — and a create_file call reads while the answer goes on record but writes only after.
 */
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { beforeCalls, interceptQueries, sleep } from '../helpers/model-spies';
import { ofType, router, say, streamFile, words } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '5000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

/** The writer's first step calls create_file; its second streams the chapter. */
const chapterScript = () => [
  router({ current_agent: 'writer', workflow_plan: 'quick' }),
  ...streamFile('writer', 'Chapter 1', words(40)),
  say('writer', 'Chapter 1 is written.'),
];

/** The first step's records (`<turnId>:1`: its usage, its transcript). */
const firstStep = (filter: { _id?: string }) => String(filter._id ?? '').endsWith(':1');

/** Usage writes of the first step's model call go through `onFirstStep`. */
const interceptFirstStepUsage = (onFirstStep: (write: () => Promise<unknown>) => Promise<unknown>) =>
  interceptQueries(h.runtime.models.UsageRecord, 'updateOne', (filter: { _id?: string }) =>
    firstStep(filter) ? onFirstStep : undefined,
  );

/** Writes of the first step's answer, recorded before its calls run, go through `answer`. */
const interceptFirstAnswer = (answer: (write: () => Promise<unknown>) => Promise<unknown>) =>
  interceptQueries(h.runtime.models.AgentStep, 'replaceOne', (filter: { _id?: string }, doc: { result?: unknown }) =>
    firstStep(filter) && doc.result ? answer : undefined,
  );

test('the step’s create_file runs while its usage record is still being written', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script(chapterScript());
  const order: string[] = [];
  const executions = beforeCalls(h.runtime.models.ToolExecution, 'create', (doc: { name?: string }) => {
    order.push(`tool ${doc.name}`);
  });
  const usage = interceptFirstStepUsage(async (write) => {
    await sleep(300);
    const done = await write();
    order.push('usage recorded');
    return done;
  });
  try {
    const r = await runTurn(h, sessionId, 'Write chapter 1');
    expect(r.outcome.status).toBe('completed');
    expect(order).toEqual(['tool create_file', 'usage recorded']);
    const records = await h.runtime.models.UsageRecord.find({ turnId: r.turnId }).lean();
    expect(records.map((x) => x.step).sort()).toEqual([0, 1, 2, 3]);
  } finally {
    executions.mockRestore();
    usage.mockRestore();
  }
});

test('a step whose usage record failed after its calls ran is retried from its answer on record, and the record lands once', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script(chapterScript());
  let failed = 0;
  const usage = interceptFirstStepUsage(async (write) => {
    if (failed++ === 0) throw new Error('MongoDB blip while recording usage');
    return write();
  });
  try {
    const r = await runTurn(h, sessionId, 'Write chapter 1');
    expect(failed).toBe(2);
    expect(r.outcome.status).toBe('completed');
    // Not asked again: the retry ran from the answer on record (the script has no second create_file).
    expect(h.model.requests.filter((x) => x.agent === 'writer')).toHaveLength(3);
    expect(ofType(r.events, 'step_retry')).toHaveLength(0);
    expect(ofType(r.events, 'tool_result').map((e) => e.data.name)).toEqual(['create_file']);
    const records = await h.runtime.models.UsageRecord.find({ turnId: r.turnId }).lean();
    expect(records.map((x) => x.step).sort()).toEqual([0, 1, 2, 3]);
    expect(records.find((x) => x.step === 1)).toMatchObject({ agent: 'writer', sessionId, source: 'provider' });
    expect(await h.runtime.models.File.countDocuments({ projectId: r.turn.projectId, title: 'Chapter 1' })).toBe(1);
  } finally {
    usage.mockRestore();
  }
});

test('create_file reads while the step’s answer goes on record, and writes only once it is', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script(chapterScript());
  const { File } = h.runtime.models;
  const order: string[] = [];
  // The first step's answer goes on record slowly.
  const answers = interceptFirstAnswer(async (write) => {
    await sleep(200);
    const done = await write();
    order.push('answer on record');
    return done;
  });
  const pendingReads = beforeCalls(File, 'findOne', (filter: Record<string, unknown>) => {
    if ('pendingTurnId' in filter) order.push('pending file read');
  });
  const creates = beforeCalls(File, 'create', () => {
    order.push('file created');
  });
  try {
    const r = await runTurn(h, sessionId, 'Write chapter 1');
    expect(r.outcome.status).toBe('completed');
    expect(order).toEqual(['pending file read', 'answer on record', 'file created']);
  } finally {
    answers.mockRestore();
    pendingReads.mockRestore();
    creates.mockRestore();
  }
});

test('when the answer fails to go on record, create_file has written nothing: the retried step asks again and creates the file once', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const [routing, createCall, ...rest] = chapterScript();
  // The retried step asks the model again: it makes the same call.
  h.model.script([routing!, createCall!, createCall!, ...rest]);
  const order: string[] = [];
  let failures = 0;
  // The first attempt's answer fails to go on record; the retry's goes through.
  const answers = interceptFirstAnswer(async (write) => {
    if (failures++ > 0) return write();
    await sleep(150);
    order.push('answer not recorded');
    throw new Error('MongoDB blip while recording the answer');
  });
  const creates = beforeCalls(h.runtime.models.File, 'create', () => {
    order.push('file created');
  });
  try {
    const r = await runTurn(h, sessionId, 'Write chapter 1');
    expect(r.outcome.status).toBe('completed');
    expect(order).toEqual(['answer not recorded', 'file created']);
    expect(ofType(r.events, 'step_retry')).toHaveLength(1);
    expect(await h.runtime.models.File.countDocuments({ projectId: r.turn.projectId, title: 'Chapter 1' })).toBe(1);
  } finally {
    answers.mockRestore();
    creates.mockRestore();
  }
});
