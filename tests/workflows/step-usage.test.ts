/**
 * A step that runs its tool calls records its model call's usage beside its answer, not
 * before it (src/activities/llm.ts): the calls do not wait for the usage record, and a step
 * retried after its answer went on record writes the usage record if it had not landed.
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
