/**
 * Graceful shutdown on SIGTERM / SIGINT: the steps run in order, each logged, the whole
 * bounded by a grace period (orchestrators SIGKILL after theirs: docker's default is 10 s,
 * Kubernetes' 30 s). A second signal exits at once.
 */
import type { Logger } from 'pino';

export type ShutdownStep = [name: string, run: () => Promise<unknown> | unknown];

export function onShutdown(
  logger: Logger,
  graceSeconds: number,
  steps: ShutdownStep[],
  exit: (code: number) => void = (c) => process.exit(c),
): void {
  let started = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (started) {
      logger.warn({ signal }, 'second signal: exiting now');
      exit(1);
      return;
    }
    started = true;
    logger.info({ signal, graceSeconds }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ graceSeconds }, 'shutdown grace period over: exiting with work unfinished (Temporal retries it)');
      exit(1);
    }, graceSeconds * 1000);
    timer.unref();
    void (async () => {
      let code = 0;
      for (const [name, run] of steps) {
        try {
          await run();
          logger.debug({ step: name }, 'shutdown step done');
        } catch (err) {
          code = 1;
          logger.error({ err, step: name }, 'shutdown step failed');
        }
      }
      clearTimeout(timer);
      logger.info('shutdown complete');
      exit(code);
    })();
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
