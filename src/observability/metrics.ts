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

/**
 * One metric of this process's registry (no labels unless given). `labelNames` types the
 * labels each update may set; histograms use LATENCY_BUCKETS unless given their own.
 */
const counter = <T extends string = string>(name: string, help: string, labelNames: readonly T[] = []) =>
  new client.Counter<T>({ name, help, labelNames, registers: [registry] });
const gauge = <T extends string = string>(name: string, help: string, labelNames: readonly T[] = []) =>
  new client.Gauge<T>({ name, help, labelNames, registers: [registry] });
const histogram = <T extends string>(name: string, help: string, labelNames: readonly T[], buckets = LATENCY_BUCKETS) =>
  new client.Histogram<T>({ name, help, labelNames, buckets, registers: [registry] });

export const metrics = {
  // API
  httpRequestDuration: histogram(
    'scriptorium_http_request_duration_seconds',
    'API request latency by method, route template and status (SSE streams: until the stream ends).',
    ['method', 'route', 'status'],
  ),
  sseConnections: gauge('scriptorium_sse_connections', 'SSE responses open right now.', ['reader']),
  fanoutReaders: gauge(
    'scriptorium_sse_fanout_readers',
    'Shared Redis stream readers (one per followed stream per process).',
  ),
  backlogReads: counter(
    'scriptorium_sse_backlog_reads_total',
    'XRANGE pages read to send a client the stream entries it has not seen.',
  ),
  resetsSent: counter('scriptorium_sse_resets_total', '`reset` events sent to clients, by reason.', ['reason']),

  // Model and activities (worker side)
  tokens: counter(
    'scriptorium_llm_tokens_total',
    'Model tokens by agent, kind (prompt/completion/cached_prompt: the part of prompt served from the provider cache) and usage_source (provider/estimate).',
    ['agent', 'kind', 'usage_source'],
  ),
  costUsd: counter(
    'scriptorium_llm_cost_usd_total',
    'USD of model calls by the price table (MODEL_PRICES), by agent and model; calls to unpriced models add nothing.',
    ['agent', 'model'],
  ),
  timeToFirstToken: histogram(
    'scriptorium_llm_time_to_first_token_seconds',
    'From sending a model request to the first streamed chunk, by agent.',
    ['agent'],
    [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
  ),
  modelRequestDuration: histogram(
    'scriptorium_llm_request_duration_seconds',
    'Whole model requests (to the end of the stream), by agent and outcome.',
    ['agent', 'outcome'],
  ),
  modelErrors: counter(
    'scriptorium_llm_errors_total',
    'Failed model requests by class: rate_limit, server_error, bad_request, auth, timeout, connection, aborted, stream_interrupted.',
    ['agent', 'class'],
  ),
  toolFailures: counter(
    'scriptorium_tool_failures_total',
    'Tool calls that returned {ok:false}, by tool and error_type.',
    ['tool', 'error_type'],
  ),
  breakerTrips: counter(
    'scriptorium_tool_breaker_trips_total',
    'Turns stopped by the per-turn tool failure circuit breaker, by reason.',
    ['reason'],
  ),
  reviewVerdicts: counter(
    'scriptorium_review_verdicts_total',
    "Quality reviewer's closing verdicts (pass / revise / none when no verdict line was found).",
    ['verdict'],
  ),
  activityDuration: histogram(
    'scriptorium_activity_duration_seconds',
    'Activity attempts by type and outcome (ok / error / cancelled).',
    ['activity', 'outcome'],
  ),
  activityErrors: counter(
    'scriptorium_activity_errors_total',
    'Failed activity attempts by type and error name (Temporal retries the retryable ones).',
    ['activity', 'error'],
  ),
};

/** The text exposition of every metric in this process. */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
