/**
 * How the workflow bundle is built, in one place for the production build
 * (`scripts/build-workflow-bundle.ts`), the worker when it bundles at start, and tests.
 * The bundle always carries Temporal's OpenTelemetry workflow interceptors: a prebuilt
 * bundle cannot gain them later, and with tracing off their spans go nowhere.
 */
import path from 'node:path';

export const WORKFLOWS_PATH = require.resolve('../workflows');

export const WORKFLOW_INTERCEPTOR_MODULES = [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];

/** Where `npm run build` writes the prebuilt bundle, next to the compiled code. */
export const PREBUILT_BUNDLE_PATH = path.resolve(__dirname, '../../dist/workflow-bundle.js');
