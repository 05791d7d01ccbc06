import { trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger } from 'pino';
import { activityScope } from './observability/activity-scope';

/**
 * Structured JSON logs (pino): one stream per process, which Temporal's own logs join
 * (`observability/temporal-runtime.ts`) and HTTP request logs join (pino-http). Inside an
 * activity every line carries its workflow and activity ids; inside a traced operation,
 * its trace and span ids. Errors go under `err` (pino's error serializer: type, message,
 * stack, cause).
 */
export function createLogger(level: string, name = 'scriptorium', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
    mixin() {
      const a = activityScope.getStore();
      const span = trace.getActiveSpan()?.spanContext();
      return {
        ...(a ? { workflowId: a.workflowId, runId: a.runId, activityId: a.activityId, activityType: a.activityType, attempt: a.attempt } : {}),
        ...(span && span.traceFlags ? { traceId: span.traceId, spanId: span.spanId } : {}),
      };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
