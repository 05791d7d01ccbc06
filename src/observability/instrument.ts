/**
 * First import of every entry point (src/main.ts, src/worker.ts): tracing has to be in
 * place before ioredis, mongodb and http are loaded, or their calls go untraced.
 * Reads only the two tracing settings; a bad configuration is reported by the entry point.
 */
import { loadConfig } from '../config';
import { initTracing } from './tracing';

try {
  const config = loadConfig();
  initTracing({ serviceName: config.OTEL_SERVICE_NAME, endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT || undefined });
} catch {
  // loadConfig throws on invalid settings; the entry point loads them again and says which.
}
