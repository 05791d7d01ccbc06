import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { activeTracing } from '../../src/observability/tracing';

export const ROOT = path.resolve(__dirname, '../..');

/**
 * The workflow bundle built once by tests/global-setup.ts: with the tracing interceptors when
 * tracing is on (as the worker then has the tracing plugin, src/worker.ts), or `tracing` says so.
 */
export function testBundle(tracing = activeTracing() !== null): WorkflowBundleWithSourceMap {
  const file = tracing
    ? (process.env.SCRIPTORIUM_TEST_BUNDLE ?? path.join(ROOT, '.local/test-workflow-bundle.js'))
    : (process.env.SCRIPTORIUM_TEST_BUNDLE_UNTRACED ?? path.join(ROOT, '.local/test-workflow-bundle.untraced.js'));
  return { code: fs.readFileSync(file, 'utf8') } as WorkflowBundleWithSourceMap;
}
