/**
 * The model client's fetch: time to first token, request outcome and error class per
 * agent, whatever the provider does (rate limit, server error, dropped connection, a
 * stream cut mid-way, an author's interrupt).
 */
import { activityScope } from '../../src/observability/activity-scope';
import { metrics, registry } from '../../src/observability/metrics';
import { instrumentedFetch } from '../../src/observability/model-fetch';
import { parseMetrics, sumOf } from '../helpers/prometheus';

const scope = {
  workflowId: 'turn-x',
  runId: 'r',
  activityId: '1',
  activityType: 'llmStep',
  attempt: 1,
  agent: 'writer',
};
const inScope = <T>(fn: () => Promise<T>): Promise<T> => activityScope.run(scope, fn);
const value = async (name: string, labels: Record<string, string>): Promise<number> =>
  sumOf(parseMetrics(await registry.metrics()), name, labels);

function streamOf(
  chunks: string[],
  opts: { delayFirstMs?: number; failAfter?: number } = {},
): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    async pull(c) {
      if (i === 0 && opts.delayFirstMs) await new Promise((r) => setTimeout(r, opts.delayFirstMs));
      if (opts.failAfter !== undefined && i === opts.failAfter) return c.error(new TypeError('terminated'));
      if (i >= chunks.length) return c.close();
      c.enqueue(new TextEncoder().encode(chunks[i++]!));
    },
  });
}

beforeEach(() => {
  metrics.modelErrors.reset();
  metrics.timeToFirstToken.reset();
  metrics.modelRequestDuration.reset();
});

test('time to first token is measured to the first streamed chunk, and the body passes through unchanged', async () => {
  const f = instrumentedFetch(
    async () => new Response(streamOf(['data: a\n\n', 'data: b\n\n'], { delayFirstMs: 120 }), { status: 200 }),
  );
  const text = await inScope(async () => (await f('http://model/v1/chat/completions', { method: 'POST' })).text());
  expect(text).toBe('data: a\n\ndata: b\n\n');
  expect(await value('scriptorium_llm_time_to_first_token_seconds_count', { agent: 'writer' })).toBe(1);
  expect(await value('scriptorium_llm_time_to_first_token_seconds_sum', { agent: 'writer' })).toBeGreaterThanOrEqual(
    0.1,
  );
  expect(await value('scriptorium_llm_request_duration_seconds_count', { agent: 'writer', outcome: 'ok' })).toBe(1);
  expect(await value('scriptorium_llm_errors_total', {})).toBe(0);
});

test('model errors are counted by class: rate_limit, server_error, bad_request, connection, stream_interrupted', async () => {
  const statuses = [429, 503, 400];
  for (const status of statuses) {
    const f = instrumentedFetch(async () => new Response('{"error":{}}', { status }));
    expect((await inScope(() => f('http://model', {}))).status).toBe(status);
  }
  const refused = instrumentedFetch(async () => {
    throw new TypeError('fetch failed');
  });
  await expect(inScope(() => refused('http://model', {}))).rejects.toThrow('fetch failed');
  const cut = instrumentedFetch(
    async () => new Response(streamOf(['data: a\n\n', 'data: b\n\n'], { failAfter: 1 }), { status: 200 }),
  );
  await expect(inScope(async () => (await cut('http://model', {})).text())).rejects.toThrow();

  for (const cls of ['rate_limit', 'server_error', 'bad_request', 'connection', 'stream_interrupted'])
    expect([cls, await value('scriptorium_llm_errors_total', { agent: 'writer', class: cls })]).toEqual([cls, 1]);
});

test("an author's interrupt is an aborted request, not a model error", async () => {
  const controller = new AbortController();
  const f = instrumentedFetch(async (_u, init) => {
    controller.abort();
    throw Object.assign(new Error('aborted'), { name: 'AbortError', signal: init?.signal });
  });
  await expect(inScope(() => f('http://model', { signal: controller.signal }))).rejects.toThrow('aborted');
  expect(await value('scriptorium_llm_request_duration_seconds_count', { agent: 'writer', outcome: 'aborted' })).toBe(
    1,
  );
  expect(await value('scriptorium_llm_errors_total', {})).toBe(0);
});
