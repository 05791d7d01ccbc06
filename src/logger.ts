import pino, { type Logger } from 'pino';

/** Structured JSON logs (pino). One logger per process; children carry context. */
export function createLogger(level: string, name = 'scriptorium'): Logger {
  return pino({ name, level });
}
