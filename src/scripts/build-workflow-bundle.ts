/**
 * Prebuilds the workflow bundles for production (samples-typescript `production/`): run by
 * `npm run build` from the compiled code, so the bundles hold exactly the workflow code in
 * dist/. The worker loads one in production instead of bundling at start-up: the one with
 * the tracing interceptors when tracing is on, the one without otherwise (workflow-bundle.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { prebuiltBundlePath, workflowBundleOptions, WORKFLOWS_PATH } from '../bundling';

async function main(): Promise<void> {
  for (const tracing of [true, false]) {
    const out = prebuiltBundlePath(tracing);
    const { code } = await bundleWorkflowCode(workflowBundleOptions(tracing));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, code);
    console.log(
      `workflow bundle${tracing ? ' (tracing)' : ''}: ${out} (${(code.length / 1024).toFixed(0)} KiB, from ${WORKFLOWS_PATH})`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
