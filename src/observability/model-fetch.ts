/**
 * The `fetch` the OpenAI client uses, wrapped once: a span around each model request (kept
 * open until its stream ends), time to first streamed chunk, request duration and errors
 * by class. llm.ts and router.ts stay free of instrumentation; the agent comes from the
 * activity scope.
 */
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { activityScope } from './activity-scope';
import { metrics } from './metrics';

type Fetch = typeof fetch;

/** Stable error classes for `scriptorium_llm_errors_total{class}`. */
export function errorClassOfStatus(status: number): string {
  if (status === 429) return 'rate_limit';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408 || status === 504) return 'timeout';
  if (status >= 500) return 'server_error';
  return 'bad_request';
}

function errorClassOfThrown(err: unknown, signal: AbortSignal | null | undefined): string {
  if (signal?.aborted) return 'aborted';
  const name = err instanceof Error ? err.name : '';
  if (name === 'AbortError') return 'aborted';
  if (name === 'TimeoutError') return 'timeout';
  return 'connection';
}

export function instrumentedFetch(base: Fetch = fetch): Fetch {
  const tracer = trace.getTracer('scriptorium');
  return async (input, init) => {
    const agent = activityScope.getStore()?.agent ?? 'unknown';
    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1000;
    const span = tracer.startSpan('llm.chat', {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.system': 'openai',
        'scriptorium.agent': agent,
        'url.full': String(input instanceof Request ? input.url : input),
      },
    });
    let finished = false;
    const finish = (outcome: string, err?: unknown): void => {
      if (finished) return;
      finished = true;
      metrics.modelRequestDuration.observe({ agent, outcome }, seconds());
      // An author's interrupt is not a model failure.
      if (outcome !== 'ok' && outcome !== 'aborted') metrics.modelErrors.inc({ agent, class: outcome });
      if (outcome !== 'ok')
        span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : outcome });
      span.setAttribute('scriptorium.outcome', outcome);
      span.end();
    };

    let res: Response;
    try {
      // The HTTP client span (undici instrumentation) becomes a child of this one.
      res = await context.with(trace.setSpan(context.active(), span), () => base(input, init));
    } catch (err) {
      finish(errorClassOfThrown(err, init?.signal), err);
      throw err;
    }
    span.setAttribute('http.response.status_code', res.status);
    if (!res.ok || !res.body) {
      finish(res.ok ? 'ok' : errorClassOfStatus(res.status));
      return res;
    }

    const reader = res.body.getReader();
    let first = true;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            finish('ok');
            controller.close();
            return;
          }
          if (first) {
            first = false;
            metrics.timeToFirstToken.observe({ agent }, seconds());
            span.addEvent('first_chunk');
          }
          controller.enqueue(value);
        } catch (err) {
          finish(init?.signal?.aborted ? 'aborted' : 'stream_interrupted', err);
          controller.error(err);
        }
      },
      async cancel(reason) {
        finish('aborted');
        await reader.cancel(reason);
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
