/**
 * OpenTelemetry tracing: API → Temporal client → workflow → activities (Temporal's
 * OpenTelemetry plugin) plus HTTP in and out, MongoDB, Redis and the model call. Off unless
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set (or a test hands in an exporter).
 *
 * Auto-instrumentation patches modules as they are required, so entry points call
 * {@link initTracing} before anything imports ioredis, mongodb or express
 * (`src/observability/instrument.ts` is their first import).
 *
 * The OpenTelemetry packages are on the 1.x SDK line because
 * `@temporalio/interceptors-opentelemetry` 1.24 is built against it.
 */
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import type * as TraceBase from '@opentelemetry/sdk-trace-base';
import type * as TraceNode from '@opentelemetry/sdk-trace-node';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Instr from '@opentelemetry/instrumentation';
import type * as InstrHttp from '@opentelemetry/instrumentation-http';
import type * as InstrRedis from '@opentelemetry/instrumentation-ioredis';
import type * as InstrMongo from '@opentelemetry/instrumentation-mongodb';
import type * as InstrUndici from '@opentelemetry/instrumentation-undici';
import { Resource } from '@opentelemetry/resources';
import { NoopSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';

export interface TracingOptions {
  serviceName: string;
  /** OTLP/HTTP base URL; traces are posted to `<endpoint>/v1/traces`. */
  endpoint?: string;
  /** An exporter of one's own (tests: InMemorySpanExporter); spans go out one by one. */
  exporter?: SpanExporter;
}

export interface Tracing {
  provider: NodeTracerProvider;
  spanProcessor: SpanProcessor;
  resource: Resource;
  instrumentations: InstrumentationBase[];
  shutdown(): Promise<void>;
}

let active: Tracing | null = null;

/** Paths that would drown a trace store in noise. */
const UNTRACED_PATHS = new Set(['/metrics', '/health']);

/** Starts tracing when an endpoint or exporter is given; returns null (and does nothing) otherwise. Idempotent. */
export function initTracing(opts: TracingOptions): Tracing | null {
  if (active) return active;
  if (!opts.exporter && !opts.endpoint) return null;
  // Loaded only when tracing is on: the SDK, exporter and instrumentations cost start-up
  // time every process (and test worker) would otherwise pay for nothing.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { BatchSpanProcessor, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof TraceBase;
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof TraceNode;
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof Instr;
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof InstrHttp;
  const { IORedisInstrumentation } = require('@opentelemetry/instrumentation-ioredis') as typeof InstrRedis;
  const { MongoDBInstrumentation } = require('@opentelemetry/instrumentation-mongodb') as typeof InstrMongo;
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof InstrUndici;
  /* eslint-enable @typescript-eslint/no-require-imports */

  const resource = Resource.default().merge(new Resource({ [ATTR_SERVICE_NAME]: opts.serviceName }));
  const spanProcessor = opts.exporter
    ? new SimpleSpanProcessor(opts.exporter)
    : new BatchSpanProcessor(new OTLPTraceExporter({ url: `${opts.endpoint!.replace(/\/+$/, '')}/v1/traces` }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // Global provider, AsyncLocalStorage context manager and W3C trace-context propagation.
  provider.register();
  const instrumentations: InstrumentationBase[] = [
    new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]!) }),
    // The model call goes through fetch (undici); its span nests under `llm.chat`.
    new UndiciInstrumentation(),
    new IORedisInstrumentation({ requireParentSpan: true }),
    new MongoDBInstrumentation({ requireParentSpan: true }),
  ];
  registerInstrumentations({ tracerProvider: provider, instrumentations });
  active = {
    provider,
    spanProcessor,
    resource,
    instrumentations,
    async shutdown() {
      for (const i of instrumentations) i.disable();
      await provider.shutdown();
      active = null;
    },
  };
  return active;
}

export function activeTracing(): Tracing | null {
  return active;
}

/**
 * Temporal's OpenTelemetry plugin for a client or worker: installed only while tracing is on
 * (src/worker.ts, src/runtime.ts), with a bundle that carries the tracing interceptors
 * (`workflow-bundle.ts`). Without an active tracer its spans go to a no-op processor.
 */
export function temporalTracingPlugin(): OpenTelemetryPlugin {
  return new OpenTelemetryPlugin({
    resource: active?.resource ?? Resource.default(),
    spanProcessor: active?.spanProcessor ?? new NoopSpanProcessor(),
  });
}

/** Flushes and stops tracing (on shutdown); a no-op when it is off. */
export async function shutdownTracing(): Promise<void> {
  await active?.shutdown();
}
