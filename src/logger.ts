import { trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { activityScope } from './observability/activity-scope';

/**
 * Structured JSON logs (pino): one stream per process, which Temporal's own logs join
 * (`observability/temporal-runtime.ts`) and HTTP request logs join (pino-http). Inside an
 * activity every line carries its workflow and activity ids; inside a traced operation,
 * its trace and span ids. Errors go under `err` (pino's error serializer: type, message,
 * stack, cause).
 */
export type LogFormat = 'json' | 'pretty';

/**
 * The format a process logs in: as set, or with `auto` readable lines for a person at a
 * terminal and JSON wherever a machine reads them (production, CI, a pipe or a file).
 */
export function logFormatFor(
  setting: 'auto' | LogFormat,
  env: { nodeEnv: string; ci: boolean; tty: boolean },
): LogFormat {
  if (setting !== 'auto') return setting;
  return env.tty && !env.ci && env.nodeEnv !== 'production' ? 'pretty' : 'json';
}

/** The format this process logs in, from LOG_FORMAT and where its standard output goes. */
export function processLogFormat(config: { LOG_FORMAT: 'auto' | LogFormat; NODE_ENV: string }): LogFormat {
  return logFormatFor(config.LOG_FORMAT, {
    nodeEnv: config.NODE_ENV,
    ci: !!process.env.CI,
    tty: !!process.stdout.isTTY,
  });
}

/**
 * Pretty lines are formatted in this thread (pino-pretty as a stream, not a worker-thread
 * transport): a local run's volume is small, and lines stay in order with console output.
 */
function prettyStream(destination?: DestinationStream): DestinationStream {
  return pretty({
    colorize: !destination,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    destination: destination ?? 1,
    sync: true,
  });
}

export function createLogger(
  level: string,
  name = 'scriptorium',
  destination?: DestinationStream,
  format: LogFormat = 'json',
): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
    mixin() {
      const a = activityScope.getStore();
      const span = trace.getActiveSpan()?.spanContext();
      return {
        ...(a
          ? {
              workflowId: a.workflowId,
              runId: a.runId,
              activityId: a.activityId,
              activityType: a.activityType,
              attempt: a.attempt,
            }
          : {}),
        ...(span && span.traceFlags ? { traceId: span.traceId, spanId: span.spanId } : {}),
      };
    },
  };
  const out = format === 'pretty' ? prettyStream(destination) : destination;
  return out ? pino(options, out) : pino(options);
}
