/**
 * Activity inputs are checked where the activity starts (src/activities/input-check.ts): an
 * input of an incompatible build fails at once, not retried, with the activity and the field
 * named, and never reaches the activity; an input with fields this build does not know is
 * accepted and handed on as sent. The whole suite's turns and jobs run through the same check,
 * so every input this build really sends is accepted too.
 */
import path from 'node:path';
import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import { bundleWorkflowCode, type Worker } from '@temporalio/worker';
import { WorkflowFailedError } from '@temporalio/client';
import { createActivities } from '../../src/activities';
import { checkActivityInput } from '../../src/activities/input-check';
import { activityInputs } from '../../src/activities/inputs';
import { FailureType } from '../../src/core/failure-types';
import { createLogger } from '../../src/logger';
import { createLlmClient } from '../../src/runtime';
import { createWorker } from '../../src/worker';
import { createHarness, type Harness, uniqueName } from '../helpers/harness';

/** What checkActivityInput threw, or null when it accepted the input. */
function refusal(activity: string, ...args: unknown[]): ApplicationFailure | null {
  try {
    checkActivityInput(activity, args);
    return null;
  } catch (err) {
    if (err instanceof ApplicationFailure) return err;
    throw err;
  }
}

const turn = '6b16d2812abc0a5d0feb6d79';

describe('the schemas', () => {
  test('every activity the worker registers has one, and no schema names an activity that does not exist', () => {
    const registered = Object.keys(createActivities({ config: {}, models: {}, redis: {} } as never, {} as never));
    expect(Object.keys(activityInputs).sort()).toEqual(registered.sort());
  });

  test('a field this build does not know passes, as sent', () => {
    expect(refusal('routeTurn', { turnId: turn, fromANewerBuild: { depth: 2 } })).toBeNull();
    expect(
      refusal('publishEvents', {
        streamKind: 'turn',
        streamId: turn,
        slot: 0,
        events: [{ type: 'content', data: { delta: 'x' }, turnId: turn, addedLater: 1 }],
      }),
    ).toBeNull();
  });

  test('a missing or mistyped field fails for good, naming the activity and the field', () => {
    const missing = refusal('approvalDecided', { turnId: turn, decision: 'approve', slot: 0 });
    expect(missing).toMatchObject({ type: FailureType.ActivityInputInvalid, nonRetryable: true });
    expect(missing?.message).toContain('approvalDecided');
    expect(missing?.message).toContain('approvalId');

    const mistyped = refusal('finishChapter', {
      jobId: turn,
      chapter: '3',
      turnIds: [],
      slot: 0,
      status: 'running',
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    });
    expect(mistyped?.message).toContain('chapter');
    expect(mistyped?.details).toEqual([{ issues: [expect.objectContaining({ path: ['chapter'] })] }]);

    // A value outside what this build knows where the activity branches on it.
    expect(refusal('recordJob', { jobId: turn, slot: 0, status: 'half-done' })?.message).toContain('status');
    expect(
      refusal('publishEvents', { streamKind: 'turn', streamId: turn, slot: 0, events: [{ type: 'no_such' }] }),
    ).not.toBeNull();
  });

  test('an activity this build has no schema for, or a call with two arguments, is refused', () => {
    expect(refusal('renameChapter', { turnId: turn })?.message).toContain('no input schema');
    expect(refusal('routeTurn', { turnId: turn }, { turnId: turn })?.message).toContain('expected one argument');
  });
});

describe('on a worker', () => {
  let h: Harness;
  let worker: Worker;
  let running: Promise<void>;
  const taskQueue = uniqueName('input-check');

  beforeAll(async () => {
    h = await createHarness({ noWorker: true });
    const { code } = await bundleWorkflowCode({
      workflowsPath: path.join(__dirname, 'fixtures/input-check-workflows.ts'),
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} },
    });
    worker = await createWorker({
      config: h.config,
      runtime: h.runtime,
      llm: createLlmClient(h.config, h.model.baseURL),
      logger: createLogger(h.config.LOG_LEVEL, 'test'),
      workflowBundle: { code } as never,
      taskQueue,
    });
    running = worker.run();
  }, 60_000);
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await h?.close();
  });

  const call = (input: unknown, local: boolean) =>
    h.runtime.temporal.workflow.execute('callExistingChapters', {
      args: [input, { local }],
      taskQueue,
      workflowId: uniqueName('wf'),
      workflowExecutionTimeout: '60s',
    });

  /** The failure the activity call ended with, from the workflow that made it. */
  async function failureOf(
    input: unknown,
    local: boolean,
  ): Promise<{ failure: ApplicationFailure; retry?: RetryState }> {
    const err = await call(input, local).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const cause = (err as WorkflowFailedError).cause;
    const app = cause instanceof ActivityFailure ? cause.cause : cause;
    expect(app).toBeInstanceOf(ApplicationFailure);
    return {
      failure: app as ApplicationFailure,
      retry: cause instanceof ActivityFailure ? cause.retryState : undefined,
    };
  }

  test.each([false, true])(
    'an input of an incompatible build fails once, before the activity (local: %s)',
    async (local) => {
      const { failure, retry } = await failureOf({ jobId: 42 }, local);
      if (!local) expect(retry).toBe(RetryState.NON_RETRYABLE_FAILURE);
      expect(failure.nonRetryable).toBe(true);
      expect(failure.type).toBe(FailureType.ActivityInputInvalid);
      expect(failure.message).toContain('existingChapters');
      expect(failure.message).toContain('jobId');
    },
    60_000,
  );

  test.each([false, true])(
    'an input with an added field reaches the activity (local: %s)',
    async (local) => {
      // The activity ran: it looked the job up and did not find it (its own failure, not the check's).
      const { failure } = await failureOf({ jobId: turn, addedByANewerBuild: true }, local);
      expect(failure.type).toBe(FailureType.JobNotFound);
    },
    60_000,
  );
});
