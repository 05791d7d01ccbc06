/**
 * Our own Prometheus metrics (prom-client), one registry per process. The API serves it at
 * `/metrics`; a standalone worker serves it on `WORKER_METRICS_PORT`. Temporal's own worker
 * metrics (task slots, schedule-to-start, activity latency) come from the SDK's native
 * runtime on its own port (see `temporal-runtime.ts`), not from here.
 *
 * Names follow Prometheus conventions: `_total` counters, `_seconds` histograms, labels
 * with a small closed set of values (agent, route template, error class), never ids.
 */
import client from 'prom-client';

export const registry = new client.Registry();
registry.setDefaultLabels({ service: 'scriptorium' });
client.collectDefaultMetrics({ register: registry, prefix: 'scriptorium_process_' });

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

export const metrics = {
  // API
  httpRequestDuration: new client.Histogram({
    name: 'scriptorium_http_request_duration_seconds',
    help: 'API request latency by method, route template and status (SSE streams: until the stream ends).',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  }),
  sseConnections: new client.Gauge({
    name: 'scriptorium_sse_connections',
    help: 'SSE responses open right now.',
    labelNames: ['reader'] as const,
    registers: [registry],
  }),
  fanoutReaders: new client.Gauge({
    name: 'scriptorium_sse_fanout_readers',
    help: 'Shared Redis stream readers (one per followed stream per process).',
    registers: [registry],
  }),
  backlogReads: new client.Counter({
    name: 'scriptorium_sse_backlog_reads_total',
    help: 'XRANGE pages read to send a client the stream entries it has not seen.',
    registers: [registry],
  }),
  resetsSent: new client.Counter({
    name: 'scriptorium_sse_resets_total',
    help: '`reset` events sent to clients, by reason.',
    labelNames: ['reason'] as const,
    registers: [registry],
  }),

  // Model and activities (worker side)
  tokens: new client.Counter({
    name: 'scriptorium_llm_tokens_total',
    help: 'Model tokens by agent, kind (prompt/completion/cached_prompt: the part of prompt served from the provider cache) and usage_source (provider/estimate).',
    labelNames: ['agent', 'kind', 'usage_source'] as const,
    registers: [registry],
  }),
  costUsd: new client.Counter({
    name: 'scriptorium_llm_cost_usd_total',
    help: 'USD of model calls by the price table (MODEL_PRICES), by agent and model; calls to unpriced models add nothing.',
    labelNames: ['agent', 'model'] as const,
    registers: [registry],
  }),
  timeToFirstToken: new client.Histogram({
    name: 'scriptorium_llm_time_to_first_token_seconds',
    help: 'From sending a model request to the first streamed chunk, by agent.',
    labelNames: ['agent'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
    registers: [registry],
  }),
  modelRequestDuration: new client.Histogram({
    name: 'scriptorium_llm_request_duration_seconds',
    help: 'Whole model requests (to the end of the stream), by agent and outcome.',
    labelNames: ['agent', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  }),
  modelErrors: new client.Counter({
    name: 'scriptorium_llm_errors_total',
    help: 'Failed model requests by class: rate_limit, server_error, bad_request, auth, timeout, connection, aborted, stream_interrupted.',
    labelNames: ['agent', 'class'] as const,
    registers: [registry],
  }),
  toolFailures: new client.Counter({
    name: 'scriptorium_tool_failures_total',
    help: 'Tool calls that returned {ok:false}, by tool and error_type.',
    labelNames: ['tool', 'error_type'] as const,
    registers: [registry],
  }),
  breakerTrips: new client.Counter({
    name: 'scriptorium_tool_breaker_trips_total',
    help: 'Turns stopped by the per-turn tool failure circuit breaker, by reason.',
    labelNames: ['reason'] as const,
    registers: [registry],
  }),
  reviewVerdicts: new client.Counter({
    name: 'scriptorium_review_verdicts_total',
    help: "Quality reviewer's closing verdicts (pass / revise / none when no verdict line was found).",
    labelNames: ['verdict'] as const,
    registers: [registry],
  }),
  activityDuration: new client.Histogram({
    name: 'scriptorium_activity_duration_seconds',
    help: 'Activity attempts by type and outcome (ok / error / cancelled).',
    labelNames: ['activity', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  }),
  activityErrors: new client.Counter({
    name: 'scriptorium_activity_errors_total',
    help: 'Failed activity attempts by type and error name (Temporal retries the retryable ones).',
    labelNames: ['activity', 'error'] as const,
    registers: [registry],
  }),
};

/** The text exposition of every metric in this process. */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
