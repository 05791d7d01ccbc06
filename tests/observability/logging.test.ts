/**
 * One structured log stream: HTTP request lines carry a request id that is also on the
 * Turn and in its workflow's memo; Temporal's own lines (worker, workflow, activity
 * context) join the same pino stream with their workflow and activity ids; errors are
 * serialised under `err` with type, message and stack.
 */
import { createLogger } from '../../src/logger';
import { activityScope } from '../../src/observability/activity-scope';
import { installTemporalRuntime } from '../../src/observability/temporal-runtime';
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  waitTurn,
} from '../helpers/harness';
import { router, say } from '../helpers/script';

type Line = Record<string, unknown> & {
  msg?: string;
  level?: number;
  err?: { type?: string; message?: string; stack?: string };
};
const lines: Line[] = [];
const logger = createLogger('debug', 'test', { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
let h: Harness;

beforeAll(async () => {
  installTemporalRuntime({ logger });
  h = await createHarness({ logger });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

test('the request id of the POST is on its log line, the Turn and the workflow memo; Temporal logs join the stream with ids; a failed model call is logged with err', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    // The first attempt of the writer's step fails; Temporal retries it.
    { match: { agent: 'writer' }, error: { status: 503, message: 'model overloaded' } },
    say('writer', 'A first line, on the second try.'),
  ]);
  const r = await api<{ turnId: string }>(
    h,
    'POST',
    `/api/v1/sessions/${sessionId}/turns`,
    { message: 'Write a first line' },
    { 'x-request-id': 'req-h7-logging-1' },
  );
  expect(r.status).toBe(202);
  const turnId = r.body.turnId;
  expect((await waitTurn(h, turnId)).status).toBe('completed');

  const turn = await h.runtime.models.Turn.findById(turnId).lean();
  expect(turn!.requestId).toBe('req-h7-logging-1');
  const described = await h.runtime.temporal.workflow.getHandle(`turn-${turnId}`).describe();
  expect(described.memo).toMatchObject({ requestId: 'req-h7-logging-1' });
  const requestLine = lines.find((l) => (l.req as { id?: string } | undefined)?.id === 'req-h7-logging-1');
  expect(requestLine).toMatchObject({ res: { statusCode: 202 }, msg: 'request completed' });
  // A request without one gets a fresh id, echoed to the caller.
  const res = await fetch(`${h.baseUrl}/api/v1/sessions/${sessionId}`);
  expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

  const workflowId = `turn-${turnId}`;
  const temporal = lines.filter((l) => l.component === 'temporal' && l.workflowId === workflowId);
  // Workflow lines (the workflow logger) and activity lines (the activity context logger).
  expect(temporal.some((l) => l.workflowType === 'turnWorkflow' && l.activityId === undefined)).toBe(true);
  expect(temporal.some((l) => l.activityType === 'llmStep' && typeof l.activityId === 'string')).toBe(true);
  const failed = temporal.find((l) => l.activityType === 'llmStep' && l.err);
  expect(failed).toBeDefined();
  expect(failed!.err).toMatchObject({ message: expect.stringContaining('503') });
  expect(typeof failed!.err!.stack).toBe('string');
  expect(failed!.level).toBeGreaterThanOrEqual(40);
});

test("inside an activity every line of the app's logger carries the workflow and activity ids", () => {
  const before = lines.length;
  activityScope.run(
    { workflowId: 'turn-abc', runId: 'run-1', activityId: '7', activityType: 'executeTool', attempt: 2 },
    () => logger.info('saved a file'),
  );
  logger.info('outside any activity');
  const [inside, outside] = lines.slice(before);
  expect(inside).toMatchObject({
    msg: 'saved a file',
    workflowId: 'turn-abc',
    runId: 'run-1',
    activityId: '7',
    activityType: 'executeTool',
    attempt: 2,
  });
  expect(outside!.workflowId).toBeUndefined();
});
