/** The operator's worker capacity settings reach the Temporal worker; unset ones keep the SDK's defaults. */
import { loadConfig } from '../../src/config';
import { workerCapacity } from '../../src/worker';

const config = (env: Record<string, string>) => loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none', ...env } });

test('set: each becomes the worker option it names', () => {
  expect(
    workerCapacity(
      config({
        WORKER_MAX_CONCURRENT_ACTIVITIES: '200',
        WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '80',
        WORKER_MAX_CACHED_WORKFLOWS: '1000',
      }),
    ),
  ).toEqual({
    maxConcurrentActivityTaskExecutions: 200,
    maxConcurrentWorkflowTaskExecutions: 80,
    maxCachedWorkflows: 1000,
  });
});

test('unset (0): no option, so the SDK default applies', () => {
  expect(workerCapacity(config({}))).toEqual({});
});

test('a value that is not a whole number stops start-up naming the setting', () => {
  expect(() => config({ WORKER_MAX_CACHED_WORKFLOWS: 'lots' })).toThrow(/WORKER_MAX_CACHED_WORKFLOWS/);
});
