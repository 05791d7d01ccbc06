/**
 * The first vertical slice on real services: POST a turn → workflow `turn-<id>` on
 * Temporal → the LLM activity streams the offline model's answer into a Redis stream →
 * create_file writes the file and its version to MongoDB → SSE serves it, ending with done.
 */
import { api, createHarness, createProjectAndSession, type Harness, postTurn, waitTurn } from '../helpers/harness';
import { readSse } from '../helpers/sse-client';
import { turnStreamKey } from '../../src/streams/redis-streams';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

test('a turn streams over SSE, ends with done, and leaves a versioned file in MongoDB and a workflow in Temporal', async () => {
  const { projectId, sessionId } = await createProjectAndSession(h);
  h.model.script([
    {
      match: { agent: 'router' },
      reply: {
        content:
          '{"current_agent":"writer","workflow_plan":"quick","workflow_agents":["writer"],"write_content":true,"read_only":false,"scope":"chapter 1"}',
      },
    },
    {
      match: { agent: 'writer' },
      reply: {
        content: 'Writing it now.',
        toolCalls: [{ name: 'create_file', arguments: { type: 'draft', title: 'Chapter 1' } }],
      },
    },
    {
      match: { agent: 'writer' },
      reply: { content: '<file>\nThe rain came early that year.\nMara counted the boats.\n</file>\nSaved chapter 1.' },
    },
  ]);
  const turnId = await postTurn(h, sessionId, 'Write chapter 1');
  const sse = await readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`);
  expect(sse.status).toBe(200);
  expect(sse.ended).toBe(true);
  expect(sse.retry).toBeGreaterThan(0);
  const types = sse.frames.map((f) => f.event);
  expect(types[types.length - 1]).toBe('done');
  expect(types).toEqual(
    expect.arrayContaining([
      'agent_selected',
      'tool_call',
      'tool_result',
      'file_created',
      'file_content',
      'file_updated',
      'usage',
    ]),
  );
  // Every frame carries the Redis stream id, and they are strictly increasing.
  const ids = sse.frames.map((f) => f.id!);
  expect(ids.every(Boolean)).toBe(true);
  const body = sse.frames
    .filter((f) => f.event === 'file_content')
    .map((f) => JSON.parse(f.data).data.delta)
    .join('');
  expect(body).toBe('The rain came early that year.\nMara counted the boats.\n');
  const chat = sse.frames
    .filter((f) => f.event === 'content')
    .map((f) => JSON.parse(f.data).data.delta)
    .join('');
  expect(chat).toContain('Writing it now.');
  expect(chat).not.toContain('<file>');

  // MongoDB: the file and its first version, written by the AI in this turn.
  const files = await h.runtime.models.File.find({ projectId }).lean();
  expect(files).toHaveLength(1);
  expect(files[0]!.content).toBe('The rain came early that year.\nMara counted the boats.\n');
  const versions = await h.runtime.models.FileVersion.find({ fileId: String(files[0]!._id) }).lean();
  expect(versions).toHaveLength(1);
  expect(versions[0]).toMatchObject({ author: 'ai', turnId, version: 1, words: 10 });

  // Temporal: the workflow exists under our id and completes (done is published just before).
  const outcome = await waitTurn(h, turnId);
  expect(outcome.status).toBe('completed');
  const desc = await h.runtime.temporal.workflow.getHandle(`turn-${turnId}`).describe();
  expect(desc.status.name).toBe('COMPLETED');
  expect(desc.type).toBe('turnWorkflow');
  // Redis: the stream is real and will expire.
  expect(await h.runtime.redis.ttl(turnStreamKey(h.config.REDIS_KEY_PREFIX, turnId))).toBeGreaterThan(0);

  const turn = await api<{ status: string; usage: { totalTokens: number } }>(h, 'GET', `/api/v1/turns/${turnId}`);
  expect(turn.body.status).toBe('completed');
  expect(turn.body.usage.totalTokens).toBeGreaterThan(0);
  expect(h.model.failures).toEqual([]);
});

test('bad input to the slice answers 400/404 JSON and starts nothing', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const bad = await api<{ error: { code: string } }>(h, 'POST', `/api/v1/sessions/${sessionId}/turns`, { message: '' });
  expect(bad.status).toBe(400);
  expect(bad.body.error.code).toBe('validation_failed');
  const extra = await api<{ error: { code: string } }>(h, 'POST', `/api/v1/sessions/${sessionId}/turns`, {
    message: 'hi',
    workflowId: 'mine',
  });
  expect(extra.status).toBe(400);
  const badId = await api<{ error: { code: string } }>(h, 'POST', `/api/v1/sessions/not-an-id/turns`, {
    message: 'hi',
  });
  expect(badId.status).toBe(400);
  expect(badId.body.error.code).toBe('invalid_id');
  const missing = await api(h, 'POST', `/api/v1/sessions/${'a'.repeat(24)}/turns`, { message: 'hi' });
  expect(missing.status).toBe(404);
  const json = await api<{ error: { code: string } }>(h, 'POST', `/api/v1/sessions/${sessionId}/turns`, '{"message": ');
  expect(json.status).toBe(400);
  expect(json.body.error.code).toBe('invalid_body');
  expect(await h.runtime.models.Turn.countDocuments({ sessionId })).toBe(0);
});
