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
import type { BundleOptions } from '@temporalio/worker';

export const WORKFLOWS_PATH = require.resolve('./workflows');

/**
 * Modules the workflow code imports that hold no state of their own: zod schemas, constants
 * and pure functions. Each workflow run gets its own copy of every module it loads, so they
 * were evaluated again for every turn (zod and our schemas: ~30 ms of a turn's first workflow
 * task; the rules that read the author's words, with their word tables, another 15–20 ms;
 * bench:turn --timeline). Preloaded, they are evaluated once per worker and shared,
 * deep-frozen (their exports), by every run.
 *
 * So a module here must not: write to what it exports (frozen: the write throws), export a
 * global or sticky regex (every use writes its `lastIndex`), keep state between calls (every
 * run would share it, and a replay would then depend on what other runs did), or import
 * `@temporalio/*` (that would share the SDK's own modules). tests/unit/preloaded-modules.test.ts
 * checks all four and reads the intent corpus with the exports frozen.
 */
export const PRELOADED_WORKFLOW_MODULES = [
  './core/events',
  './core/model/tool-schemas',
  './core/model/markers',
  './core/plans',
  './core/domain',
  './core/text',
  './core/ids',
  './core/quiet',
  './core/usage',
  './core/failure-types',
  './core/author-words',
  './core/book/file-types',
  './core/model/file-stream',
  './core/words/numerals',
  './core/words/answers',
  './core/words/job-commands',
  './core/words/job-orders',
  './core/words/order-checks',
  './core/words/order-targets',
  './core/words/order-tokens',
  './core/words/order-words',
  './core/words/job-words',
  './core/words/step-verbs',
  './core/words/orders',
  './core/words/proposals',
  './core/words/reading',
  './core/words/routing',
  './core/words/traditional',
  './core/words/utterance',
  './core/words/vague-edits',
  './core/turn/routing-choice',
].map((m) => require.resolve(m));

/** How every workflow bundle is built (production, the worker bundling at start, tests, benchmarks). */
export function workflowBundleOptions(
  tracing: boolean,
): Pick<BundleOptions, 'workflowsPath' | 'workflowInterceptorModules' | 'preloadModules'> {
  return {
    workflowsPath: WORKFLOWS_PATH,
    workflowInterceptorModules: workflowInterceptorModules(tracing),
    preloadModules: PRELOADED_WORKFLOW_MODULES,
  };
}

/** The interceptor modules of a bundle for a worker with tracing on or off. */
export function workflowInterceptorModules(tracing: boolean): string[] {
  return tracing ? [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')] : [];
}

/** Where `npm run build` writes the prebuilt bundles, next to the compiled code. */
export function prebuiltBundlePath(tracing: boolean): string {
  return path.resolve(__dirname, `../dist/workflow-bundle${tracing ? '' : '.untraced'}.js`);
}
