/**
 * Tracing: one trace covers a whole turn, from the author's HTTP request through the
 * Temporal client, the workflow and its activities, down to MongoDB, Redis and the model
 * call, collected here with an in-memory exporter.
 */
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { initTracing, shutdownTracing } from '../../src/observability/tracing';
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { router, say } from '../helpers/script';
import { patchJestModules } from '../helpers/tracing';

const exporter = new InMemorySpanExporter();
let h: Harness;

beforeAll(async () => {
  const tracing = initTracing({ serviceName: 'scriptorium-test', exporter })!;
  patchJestModules(tracing.instrumentations);
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
  await shutdownTracing();
});
afterEach(() => expectScriptFullyUsed(h));

async function spansOfTrace(traceId: string, until: (spans: ReadableSpan[]) => boolean): Promise<ReadableSpan[]> {
  const deadline = Date.now() + 10000;
  for (;;) {
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    if (until(spans) || Date.now() > deadline) return spans;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('one trace covers a turn: HTTP request → start workflow → workflow → activities → MongoDB, Redis and the model', async () => {
  const { sessionId } = await createProjectAndSession(h);
  exporter.reset();
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    say('writer', 'Here is a first line for chapter one.'),
  ]);
  const { turnId, outcome } = await runTurn(h, sessionId, 'Write a first line');
  expect(outcome.status).toBe('completed');

  const post = exporter
    .getFinishedSpans()
    .find(
      (s) =>
        s.kind === 1 /* SERVER */ &&
        s.attributes['http.method'] === 'POST' &&
        String(s.attributes['http.target']).endsWith(`/sessions/${sessionId}/turns`),
    );
  expect(post).toBeDefined();
  const traceId = post!.spanContext().traceId;
  const spans = await spansOfTrace(traceId, (s) => s.some((x) => x.name === 'RunWorkflow:turnWorkflow'));
  const names = spans.map((s) => s.name);

  // The API request starts the workflow (its parent is the test's own fetch, traced too).
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const ancestors = (s: ReadableSpan): string[] =>
    s.parentSpanId && byId.has(s.parentSpanId) ? [s.parentSpanId, ...ancestors(byId.get(s.parentSpanId)!)] : [];
  const start = spans.find((s) => s.name === 'StartWorkflow:turnWorkflow')!;
  expect(start).toBeDefined();
  expect(ancestors(start)).toContain(post!.spanContext().spanId);
  const runWorkflow = spans.find((s) => s.name === 'RunWorkflow:turnWorkflow')!;
  expect(runWorkflow.parentSpanId).toBe(start.spanContext().spanId);
  expect(names).toEqual(
    expect.arrayContaining(['RunActivity:prepareTurn', 'RunActivity:llmStep', 'RunActivity:finalizeTurn']),
  );
  // The model call, with the HTTP client span of its request beneath it.
  const llm = spans.filter((s) => s.name === 'llm.chat');
  expect(llm.map((s) => s.attributes['scriptorium.agent']).sort()).toEqual(['router', 'writer']);
  // The rules left the routing to the router: the preparation asked it (no routeTurn of its own).
  const prepare = spans.find((s) => s.name === 'RunActivity:prepareTurn')!;
  const routerCall = llm.find((s) => s.attributes['scriptorium.agent'] === 'router')!;
  expect(ancestors(routerCall)).toContain(prepare.spanContext().spanId);
  expect(names).not.toContain('RunActivity:routeTurn');
  const llmIds = new Set(llm.map((s) => s.spanContext().spanId));
  expect(
    spans.some((s) => s.parentSpanId !== undefined && llmIds.has(s.parentSpanId) && s.kind === 2 /* CLIENT */),
  ).toBe(true);
  // MongoDB and Redis calls made by the activities.
  expect(spans.some((s) => s.attributes['db.system'] === 'mongodb')).toBe(true);
  expect(
    spans.some(
      (s) => s.attributes['db.system'] === 'redis' && /xadd/i.test(String(s.attributes['db.statement'] ?? s.name)),
    ),
  ).toBe(true);
  // The trace names the turn's workflow, and every activity hangs under its workflow run.
  expect(start.attributes.temporalWorkflowId).toBe(`turn-${turnId}`);
  for (const run of spans.filter((s) => s.name.startsWith('RunActivity:')))
    expect(ancestors(run)).toContain(runWorkflow.spanContext().spanId);
});
