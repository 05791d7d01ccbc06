/**
 * The Temporal runtime of a process, installed once before any Temporal connection:
 * the SDK's logs (worker, workflow `log`, activity context logger, and the native core's
 * own lines) go into our pino stream, and a worker's runtime serves Prometheus metrics
 * (task slots, schedule-to-start latency, activity latency) when a bind address is set.
 */
import {
  type LogLevel,
  type LogMetadata,
  makeTelemetryFilterString,
  Runtime,
  type Logger as TemporalLogger,
} from '@temporalio/worker';
import type { Logger, LevelWithSilent } from 'pino';

const LEVELS: Record<LogLevel, Exclude<LevelWithSilent, 'silent' | 'fatal'>> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

const WEBPACK_SUMMARY = /\bwebpack [\d.]+ compiled\b/;

/** Temporal's Logger interface over pino. Errors in the metadata go to pino's `err` serializer. */
export class PinoTemporalLogger implements TemporalLogger {
  constructor(private readonly pino: Logger) {}

  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    // The bundler's webpack summary (a screenful of asset and module lines) is for debugging
    // the bundle, not for someone starting the app.
    const method = level === 'INFO' && WEBPACK_SUMMARY.test(message) ? 'debug' : (LEVELS[level] ?? 'info');
    if (!this.pino.isLevelEnabled(method)) return;
    const { error, failure, ...rest } = (meta ?? {}) as LogMetadata & { error?: unknown; failure?: unknown };
    const err = error ?? failure;
    this.pino[method]({ ...rest, ...(err !== undefined ? { err } : {}) }, message);
  }
  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }
  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }
  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }
  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }
  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}

export interface TemporalRuntimeOptions {
  logger: Logger;
  /** host:port for the runtime's Prometheus endpoint (`/metrics`); empty: no metrics server. */
  metricsBindAddress?: string;
}

/**
 * Installs the process's Temporal runtime. Must run before the first Connection or Worker
 * (they create a default runtime otherwise); a second call is refused by the SDK.
 */
export function installTemporalRuntime(opts: TemporalRuntimeOptions): Runtime {
  const core = opts.logger.isLevelEnabled('debug') ? 'INFO' : 'WARN';
  return Runtime.install({
    logger: new PinoTemporalLogger(opts.logger.child({ component: 'temporal' })),
    telemetryOptions: {
      // The native core's own lines come through the logger above instead of stderr.
      logging: { forward: {}, filter: makeTelemetryFilterString({ core, other: 'WARN' }) },
      ...(opts.metricsBindAddress ? { metrics: { prometheus: { bindAddress: opts.metricsBindAddress } } } : {}),
    },
  });
}
