/**
 * Prebuilds the workflow bundle for production (samples-typescript `production/`): run by
 * `npm run build` from the compiled code, so the bundle holds exactly the workflow code in
 * dist/. The worker loads it in production instead of bundling at start-up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { PREBUILT_BUNDLE_PATH, WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from '../observability/workflow-bundle';

async function main(): Promise<void> {
  const out = process.argv[2] ? path.resolve(process.argv[2]) : PREBUILT_BUNDLE_PATH;
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, code);
  console.log(`workflow bundle: ${out} (${(code.length / 1024).toFixed(0)} KiB, from ${WORKFLOWS_PATH})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
