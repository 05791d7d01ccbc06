/**
 * Worker Versioning on the real dev server: what a worker declares, and how WORKER_PROMOTE
 * makes a build current (src/worker-deployment.ts).
 */
import type { Worker } from '@temporalio/worker';
import { createLogger } from '../../src/logger';
import { createLlmClient } from '../../src/runtime';
import { createWorker } from '../../src/worker';
import { buildIdOf, promoteOnStart, versioningMode, workerDeploymentOptions } from '../../src/worker-deployment';
import { createHarness, type Harness, testBundle, testConfig, uniqueName } from '../helpers/harness';

jest.setTimeout(60_000);

let h: Harness;
const running: { worker: Worker; done: Promise<void> }[] = [];

beforeAll(async () => {
  h = await createHarness({ noWorker: true, config: { WORKER_VERSIONING: 'pinned' } });
});
afterAll(async () => {
  for (const r of running) {
    r.worker.shutdown();
    await r.done;
  }
  await h.close();
});

async function startBuild(deploymentName: string, buildId: string): Promise<void> {
  const config = { ...h.config, WORKER_DEPLOYMENT_NAME: deploymentName, SCRIPTORIUM_BUILD_ID: buildId };
  const worker = await createWorker({
    config,
    runtime: h.runtime,
    llm: createLlmClient(config, h.model.baseURL),
    logger: createLogger('warn', 'test'),
    workflowBundle: testBundle(),
  });
  running.push({ worker, done: worker.run() });
}

async function currentBuild(deploymentName: string): Promise<string | undefined> {
  const res = await h.runtime.temporal.workflowService.describeWorkerDeployment({
    namespace: h.config.TEMPORAL_NAMESPACE,
    deploymentName,
  });
  return res.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId ?? undefined;
}

test('versioning is pinned in production and off elsewhere unless set; the build id defaults to version and commit', () => {
  expect(versioningMode({ WORKER_VERSIONING: 'auto', NODE_ENV: 'production' })).toBe('pinned');
  expect(versioningMode({ WORKER_VERSIONING: 'auto', NODE_ENV: 'development' })).toBe('off');
  expect(versioningMode({ WORKER_VERSIONING: 'off', NODE_ENV: 'production' })).toBe('off');
  expect(buildIdOf({ SCRIPTORIUM_BUILD_ID: 'b-42' })).toBe('b-42');
  expect(buildIdOf({ SCRIPTORIUM_BUILD_ID: undefined })).toMatch(/^\d+\.\d+\.\d+-[0-9a-f]{7,12}$/);
  const pinned = workerDeploymentOptions(testConfig({ WORKER_VERSIONING: 'pinned', SCRIPTORIUM_BUILD_ID: 'x1' }));
  expect(pinned).toEqual({
    version: { deploymentName: 'scriptorium', buildId: 'x1' },
    useWorkerVersioning: true,
    defaultVersioningBehavior: 'PINNED',
  });
  // An unversioned worker still declares its build, for Temporal UI and `workflow describe`.
  expect(workerDeploymentOptions(testConfig({ WORKER_VERSIONING: 'off', SCRIPTORIUM_BUILD_ID: 'x1' }))).toEqual({
    version: { deploymentName: 'scriptorium', buildId: 'x1' },
    useWorkerVersioning: false,
  });
});

test('a bad deployment name or build id stops start-up with the reason', () => {
  expect(() => testConfig({ WORKER_DEPLOYMENT_NAME: 'my.deploy' })).toThrow(/WORKER_DEPLOYMENT_NAME/);
  expect(() => testConfig({ SCRIPTORIUM_BUILD_ID: 'a b' })).toThrow(/SCRIPTORIUM_BUILD_ID/);
});

test('if-none makes the first build current and leaves a later one beside it; always promotes; never leaves', async () => {
  const deploymentName = uniqueName('dep').replace(/[^A-Za-z0-9_-]/g, '-');
  const promote = (buildId: string, policy: 'always' | 'if-none' | 'never') =>
    promoteOnStart({
      workflowService: h.runtime.temporal.workflowService,
      namespace: h.config.TEMPORAL_NAMESPACE,
      version: { deploymentName, buildId },
      policy,
    });
  await startBuild(deploymentName, 'one');
  expect(await promote('one', 'if-none')).toBe('promoted');
  expect(await currentBuild(deploymentName)).toBe('one');
  expect(await promote('one', 'if-none')).toBe('already-current');

  await startBuild(deploymentName, 'two');
  expect(await promote('two', 'if-none')).toBe('left');
  expect(await promote('two', 'never')).toBe('left');
  expect(await currentBuild(deploymentName)).toBe('one');
  expect(await promote('two', 'always')).toBe('promoted');
  expect(await currentBuild(deploymentName)).toBe('two');
});
