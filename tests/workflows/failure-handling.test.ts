/**
 * How a turn fails or waits when something outside it goes wrong:
 * - a permanent failure (the project is gone) fails the turn at once, visibly, with a typed
 *   non-retryable failure — not after minutes of retries;
 * - a provider that answers 429 with `Retry-After` / `retry-after-ms` is asked again after
 *   exactly that delay, not on the fixed retry schedule (first retry after 1 s).
 */
import type { temporal } from '@temporalio/proto';
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  postTurn,
  turnEvents,
  waitTurn,
} from '../helpers/harness';
import { call, ofType, router, say } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '100000' } });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

async function failedActivityTypes(turnId: string): Promise<{ type: string; nonRetryable: boolean }[]> {
  const history = await h.runtime.temporal.workflow.getHandle(`turn-${turnId}`).fetchHistory();
  return (history.events ?? [])
    .map(
      (e: temporal.api.history.v1.IHistoryEvent) =>
        e.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo,
    )
    .filter((f): f is temporal.api.failure.v1.IApplicationFailureInfo => !!f)
    .map((f) => ({ type: f.type ?? '', nonRetryable: !!f.nonRetryable }));
}

test('a project deleted mid-turn fails the turn at once with ProjectNotFound (non-retryable), with an error event', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'query_files', { query: 'harbour' }),
  ]);
  const turnId = await postTurn(h, sessionId, 'Write chapter 1');
  await h.model.waitForRequests(2);
  // The writer's next step needs the project; it will never come back.
  await h.runtime.models.Project.deleteOne({ _id: projectId });
  const deletedAt = Date.now();
  const outcome = await waitTurn(h, turnId);
  const elapsed = Date.now() - deletedAt;
  expect(outcome.status).toBe('failed');
  // Retried as a plain error, the step would take 1+2+4+8+16 s of back-off before failing.
  expect(elapsed).toBeLessThan(10000);
  expect(await failedActivityTypes(turnId)).toEqual([{ type: 'ProjectNotFound', nonRetryable: true }]);
  const events = await turnEvents(h, turnId);
  expect(ofType(events, 'step_retry')).toHaveLength(0);
  expect(ofType(events, 'error')[0]!.data.message).toBe(`project ${projectId} not found`);
  expect(events[events.length - 1]!.type).toBe('done');
  expect((await h.runtime.models.Turn.findById(turnId).lean())?.status).toBe('failed');
});

test.each([
  ['Retry-After: 3 (seconds)', { 'retry-after': '3' }, 3000],
  ['retry-after-ms: 2500', { 'retry-after-ms': '2500' }, 2500],
])(
  'a 429 with %s is retried after the provider’s delay, not the fixed 1 s schedule',
  async (_name, headers, delayMs) => {
    const { sessionId } = await createProjectAndSession(h);
    h.model.script([
      router({ current_agent: 'writer', workflow_plan: 'quick' }),
      { match: { agent: 'writer' }, error: { status: 429, message: 'Rate limit reached, slow down', headers } },
      say('writer', 'A short answer after the back-off.'),
    ]);
    const turnId = await postTurn(h, sessionId, 'Write a line');
    const outcome = await waitTurn(h, turnId);
    expect(outcome.status).toBe('completed');
    const writer = h.model.requests.filter((r) => r.agent === 'writer');
    expect(writer).toHaveLength(2);
    const waited = writer[1]!.at - writer[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(delayMs - 50);
    expect(waited).toBeLessThan(delayMs + 4000);
    // A retried attempt leaves no failure in history: the step simply completed on attempt 2.
    expect(await failedActivityTypes(turnId)).toEqual([]);
    // The retry tells clients to drop the failed attempt's (empty) output.
    expect(ofType(await turnEvents(h, turnId), 'step_retry')).toHaveLength(1);
  },
);
