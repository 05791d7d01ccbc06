/**
 * How the workflow bundle is built, in one place for the production build
 * (`src/scripts/build-workflow-bundle.ts`), the worker when it bundles at start, and tests.
 *
 * Temporal's OpenTelemetry workflow interceptors go into a bundle only when tracing is on:
 * with spans going to a no-op processor they still cost 3–5 ms per activity call
 * (`npm run bench:temporal-floor -- --tracing both`), a dozen calls per turn. A prebuilt
 * bundle cannot gain them later, so `npm run build` writes one of each and the worker loads
 * the one that matches (src/worker.ts). Replaying a history recorded by either on the other
 * is safe: the interceptors add only headers and spans, never commands.
 */
import path from 'node:path';

export const WORKFLOWS_PATH = require.resolve('../workflows');

/** The interceptor modules of a bundle for a worker with tracing on or off. */
export function workflowInterceptorModules(tracing: boolean): string[] {
  return tracing ? [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')] : [];
}

/** Where `npm run build` writes the prebuilt bundles, next to the compiled code. */
export function prebuiltBundlePath(tracing: boolean): string {
  return path.resolve(__dirname, `../../dist/workflow-bundle${tracing ? '' : '.untraced'}.js`);
}
