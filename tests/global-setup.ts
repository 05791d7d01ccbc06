/**
 * Runs once before all suites: makes sure the real services are up (the project's own
 * script, idempotent), keeps the suite apart from the app's own data, and bundles the workflow code once for every test worker
 * (bundling per test costs seconds each): with and without the tracing interceptors, as
 * `npm run build` does for production (tests/helpers/bundle.ts picks the one that matches).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../src/bundling';

/** Where the suite runs, apart from the app (`default` namespace, Redis database 0). */
export const TEST_NAMESPACE = 'scriptorium-test';
export const TEST_REDIS_DB = 15;

export default async function globalSetup(): Promise<void> {
  const root = path.resolve(__dirname, '..');
  // Apart from the app's data: the suite's workflows live in their own namespace
  // (scripts/services.sh registers it), its Redis keys in their own logical database (each
  // test also has its own key prefix), its MongoDB data in databases it drops when done.
  // Set here, every test's config and every process a test spawns inherits them.
  process.env.TEMPORAL_NAMESPACE ||= TEST_NAMESPACE;
  process.env.REDIS_URL ||= `redis://127.0.0.1:6379/${TEST_REDIS_DB}`;
  if (!process.env.SCRIPTORIUM_SKIP_SERVICES) {
    execFileSync('bash', [path.join(root, 'scripts/services.sh'), 'start'], { stdio: 'inherit' });
  }
  for (const tracing of [true, false]) {
    const { code } = await bundleWorkflowCode({
      // Built as the production bundle of each kind (interceptors, preloaded modules), so the replay gate covers both.
      ...workflowBundleOptions(tracing),
      logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} } as never,
    });
    const out = path.join(root, `.local/test-workflow-bundle${tracing ? '' : '.untraced'}.js`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, code);
    process.env[tracing ? 'SCRIPTORIUM_TEST_BUNDLE' : 'SCRIPTORIUM_TEST_BUNDLE_UNTRACED'] = out;
  }
}
