/**
 * A step that runs its tool calls (src/activities/llm.ts, step-tools.ts): it records its model
 * call's usage beside its answer, not before it — the calls do not wait for the usage record,
 * and a step retried after its answer went on record writes the usage record if it had not
 * landed — and a create_file call reads while the answer goes on record but writes only after.
 */
import { createHarness, createProjectAndSession, expectScriptFullyUsed, type Harness, runTurn } from '../helpers/harness';
import { ofType, router, say, streamFile, words } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '5000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

/** The writer's first step calls create_file; its second streams the chapter. */
const chapterScript = () => [router({ current_agent: 'writer', workflow_plan: 'quick' }), ...streamFile('writer', 'Chapter 1', words(40)), say('writer', 'Chapter 1 is written.')];

/** Usage writes of the first step's model call (`<turnId>:1`) go through `onFirstStep`. */
function interceptFirstStepUsage(onFirstStep: (write: () => Promise<unknown>) => Promise<unknown>) {
  const { UsageRecord } = h.runtime.models;
  const updateOne = UsageRecord.updateOne.bind(UsageRecord);
  return jest.spyOn(UsageRecord, 'updateOne').mockImplementation(((filter: { _id?: string }, ...rest: unknown[]) => {
    const write = () => (updateOne as (...a: unknown[]) => { exec(): Promise<unknown> })(filter, ...rest).exec();
    const run = String(filter._id ?? '').endsWith(':1') ? () => onFirstStep(write) : write;
    return { exec: run, then: (ok: (v: unknown) => unknown, ko: (e: unknown) => unknown) => run().then(ok, ko) };
  }) as never);
}

test('the step’s create_file runs while its usage record is still being written', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script(chapterScript());
  const order: string[] = [];
  const { ToolExecution } = h.runtime.models;
  const create = ToolExecution.create.bind(ToolExecution);
  const executions = jest.spyOn(ToolExecution, 'create').mockImplementation(((doc: { name?: string }) => {
    order.push(`tool ${doc.name}`);
    return create(doc as never);
  }) as never);
  const usage = interceptFirstStepUsage(async (write) => {
    await new Promise((r) => setTimeout(r, 300));
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
  const { AgentStep, File } = h.runtime.models;
  const order: string[] = [];
  const replaceOne = AgentStep.replaceOne.bind(AgentStep);
  const answers = jest.spyOn(AgentStep, 'replaceOne').mockImplementation(((filter: { _id?: string }, doc: { result?: unknown; toolCalls?: unknown[] }, ...rest: unknown[]) => {
    const query = (replaceOne as (...a: unknown[]) => ReturnType<typeof AgentStep.replaceOne>)(filter, doc, ...rest);
    // The first step's answer, recorded before its calls run: slowed down.
    if (!String(filter._id).endsWith(':1') || !doc.result) return query;
    const exec = query.exec.bind(query);
    query.exec = (async () => {
      await new Promise((r) => setTimeout(r, 200));
      const done = await exec();
      order.push('answer on record');
      return done;
    }) as never;
    return query;
  }) as never);
  const findOne = File.findOne.bind(File);
  const pendingReads = jest.spyOn(File, 'findOne').mockImplementation(((filter: Record<string, unknown>, ...rest: unknown[]) => {
    if ('pendingTurnId' in filter) order.push('pending file read');
    return (findOne as (...a: unknown[]) => ReturnType<typeof File.findOne>)(filter, ...rest);
  }) as never);
  const create = File.create.bind(File);
  const creates = jest.spyOn(File, 'create').mockImplementation(((doc: unknown) => {
    order.push('file created');
    return create(doc as never);
  }) as never);
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
  const { AgentStep, File } = h.runtime.models;
  const order: string[] = [];
  let failures = 0;
  const replaceOne = AgentStep.replaceOne.bind(AgentStep);
  const answers = jest.spyOn(AgentStep, 'replaceOne').mockImplementation(((filter: { _id?: string }, doc: { result?: unknown }, ...rest2: unknown[]) => {
    const query = (replaceOne as (...a: unknown[]) => ReturnType<typeof AgentStep.replaceOne>)(filter, doc, ...rest2);
    if (!String(filter._id).endsWith(':1') || !doc.result || failures++ > 0) return query;
    query.exec = (async () => {
      await new Promise((r) => setTimeout(r, 150));
      order.push('answer not recorded');
      throw new Error('MongoDB blip while recording the answer');
    }) as never;
    return query;
  }) as never);
  const create = File.create.bind(File);
  const creates = jest.spyOn(File, 'create').mockImplementation(((doc: unknown) => {
    order.push('file created');
    return create(doc as never);
  }) as never);
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
