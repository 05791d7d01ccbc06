/**
 * The suite keeps out of the app's data: its workflows run in their own Temporal
 * namespace, its Redis keys in their own logical database, its MongoDB data in a database of
 * its own — so after `npm test` the app's workflow list in Temporal UI and its data are as
 * they were.
 */
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { TEST_NAMESPACE, TEST_REDIS_DB } from '../global-setup';
import { createHarness, createProjectAndSession, type Harness, runTurn } from '../helpers/harness';
import { router, say } from '../helpers/script';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

test('a turn run by the suite lives in the test namespace, Redis database and MongoDB database, not the app’s', async () => {
  expect(h.config.TEMPORAL_NAMESPACE).toBe(TEST_NAMESPACE);
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([router({ current_agent: 'writer', workflow_plan: 'quick' }), say('writer', 'A harbour at dawn.')]);
  const { turnId } = await runTurn(h, sessionId, 'Sketch an opening scene');
  const workflowId = `turn-${turnId}`;

  const connection = await Connection.connect({ address: h.config.TEMPORAL_ADDRESS });
  try {
    const inTests = new Client({ connection, namespace: TEST_NAMESPACE });
    expect((await inTests.workflow.getHandle(workflowId).describe()).status.name).toBe('COMPLETED');
    const inApp = new Client({ connection, namespace: 'default' });
    await expect(inApp.workflow.getHandle(workflowId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  } finally {
    await connection.close();
  }

  expect(h.runtime.redis.options.db).toBe(TEST_REDIS_DB);
  expect(h.dbName).not.toBe('scriptorium');
  expect(h.dbName).toMatch(/^scriptorium_test_/);
});
