import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';

export const ROOT = path.resolve(__dirname, '../..');

/** The workflow bundle built once by tests/global-setup.ts. */
export function testBundle(): WorkflowBundleWithSourceMap {
  const file = process.env.SCRIPTORIUM_TEST_BUNDLE ?? path.join(ROOT, '.local/test-workflow-bundle.js');
  return { code: fs.readFileSync(file, 'utf8') } as WorkflowBundleWithSourceMap;
}
