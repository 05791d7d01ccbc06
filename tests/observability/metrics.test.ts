/**
 * Metrics: after a real turn, the API's /metrics shows the turn's own figures (tokens by
 * agent and usage source, tool failures by error_type, the reviewer's verdict, time to
 * first token, request latency by route and status, SSE and backlog figures) and the
 * worker's Temporal runtime endpoint shows the SDK's (activity latency, task slots,
 * schedule-to-start) for the turn's task queue.
 */
import { createLogger } from '../../src/logger';
import { installTemporalRuntime } from '../../src/observability/temporal-runtime';
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, router, say, words } from '../helpers/script';
import { freePort, type Sample, scrapeUrl, sumOf } from '../helpers/prometheus';
import { readSse } from '../helpers/sse-client';

let h: Harness;
let temporalMetricsUrl: string;

beforeAll(async () => {
  const port = await freePort();
  temporalMetricsUrl = `http://127.0.0.1:${port}/metrics`;
  // Before the harness: its quiet runtime install then finds ours in place.
  installTemporalRuntime({ logger: createLogger('warn', 'test'), metricsBindAddress: `127.0.0.1:${port}` });
  h = await createHarness();
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

const api = (): Promise<Sample[]> => scrapeUrl(`${h.baseUrl}/metrics`);

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("a turn's figures show on the API's /metrics and the worker's Temporal runtime endpoint", async () => {
  const { sessionId } = await createProjectAndSession(h);
  const before = await api();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick', scope: 'chapter 1' }),
    call('writer', 'query_files', '{not json'),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 1' }),
    say('writer', `<file>\n${words(400)}\n</file>`),
    say('writer', 'Chapter 1 is written.'),
    say('quality_reviewer', 'Verdict: pass. The chapter holds.'),
  ]);
  const { turnId, outcome } = await runTurn(h, sessionId, 'Write chapter 1, about 400 words');
  expect(outcome.status).toBe('completed');
  const sse = await readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`);
  expect(sse.frames.at(-1)?.event).toBe('done');
  const badId = await readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`, {
    headers: { 'last-event-id': '999999-0' },
  });
  expect(badId.frames.map((f) => f.event)).toEqual(['reset']);

  // The verdict is counted off the activity's path: give it a moment.
  const after = await eventually(
    api,
    (s) =>
      sumOf(s, 'scriptorium_review_verdicts_total', { verdict: 'pass' }) >
      sumOf(before, 'scriptorium_review_verdicts_total', { verdict: 'pass' }),
  );
  const delta = (name: string, labels: Record<string, string> = {}): number =>
    sumOf(after, name, labels) - sumOf(before, name, labels);

  expect(
    delta('scriptorium_llm_tokens_total', { agent: 'writer', kind: 'completion', usage_source: 'provider' }),
  ).toBeGreaterThan(400);
  expect(delta('scriptorium_llm_tokens_total', { agent: 'quality_reviewer', kind: 'prompt' })).toBeGreaterThan(0);
  expect(delta('scriptorium_tool_failures_total', { tool: 'query_files', error_type: 'invalid_arguments' })).toBe(1);
  expect(delta('scriptorium_review_verdicts_total', { verdict: 'pass' })).toBe(1);
  // One LLM step per scripted reply, router included.
  expect(delta('scriptorium_llm_time_to_first_token_seconds_count', { agent: 'writer' })).toBe(4);
  expect(delta('scriptorium_llm_time_to_first_token_seconds_count', { agent: 'router' })).toBe(1);
  expect(delta('scriptorium_llm_errors_total')).toBe(0);
  expect(delta('scriptorium_activity_duration_seconds_count', { activity: 'llmStep', outcome: 'ok' })).toBe(5);
  expect(
    delta('scriptorium_http_request_duration_seconds_count', {
      method: 'POST',
      route: '/api/v1/sessions/:sessionId/turns',
      status: '202',
    }),
  ).toBe(1);
  expect(
    delta('scriptorium_http_request_duration_seconds_count', {
      method: 'GET',
      route: '/api/v1/turns/:turnId/events',
      status: '200',
    }),
  ).toBe(2);
  expect(delta('scriptorium_sse_backlog_reads_total')).toBeGreaterThanOrEqual(1);
  expect(delta('scriptorium_sse_resets_total', { reason: 'unknown_event_id' })).toBe(1);
  expect(sumOf(after, 'scriptorium_sse_connections')).toBe(0);
  expect(sumOf(after, 'scriptorium_sse_fanout_readers')).toBe(0);

  const temporal = await scrapeUrl(temporalMetricsUrl);
  const queue = { task_queue: h.config.TEMPORAL_TASK_QUEUE };
  expect(sumOf(temporal, 'temporal_activity_execution_latency_count', { ...queue, activity_type: 'llmStep' })).toBe(5);
  expect(sumOf(temporal, 'temporal_activity_schedule_to_start_latency_count', queue)).toBeGreaterThan(0);
  expect(sumOf(temporal, 'temporal_workflow_task_schedule_to_start_latency_count', queue)).toBeGreaterThan(0);
  expect(
    temporal.some((s) => s.name === 'temporal_worker_task_slots_available' && s.labels.task_queue === queue.task_queue),
  ).toBe(true);
});

test('three identical tool failures count one breaker trip', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const before = await api();
  const badEdit = call('quality_reviewer', 'edit_file', { id: 'a'.repeat(24), operation: 'append', text: 'x' });
  h.model.script([
    router({ current_agent: 'quality_reviewer', workflow_plan: 'review_only', write_content: false }),
    badEdit,
    badEdit,
    badEdit,
  ]);
  const { outcome } = await runTurn(h, sessionId, 'Review and fix chapter 1');
  expect(outcome.stopReason).toBe('tool_failure_circuit_open');
  const after = await api();
  expect(
    sumOf(after, 'scriptorium_tool_breaker_trips_total', { reason: 'repeated_unavailable_tool_call' }) -
      sumOf(before, 'scriptorium_tool_breaker_trips_total', { reason: 'repeated_unavailable_tool_call' }),
  ).toBe(1);
  expect(
    sumOf(after, 'scriptorium_tool_failures_total', { tool: 'edit_file', error_type: 'tool_not_permitted' }) -
      sumOf(before, 'scriptorium_tool_failures_total', { tool: 'edit_file', error_type: 'tool_not_permitted' }),
  ).toBe(3);
});
