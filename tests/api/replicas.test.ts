/**
 * Two API processes (this one and a spawned replica) serve the same turn stream from the
 * same Redis: identical frames, live and late, and a client can drop on one replica and
 * resume on the other without a gap or a duplicate.
 */
import { createHarness, createProjectAndSession, type Harness, postTurn, waitTurn } from '../helpers/harness';
import { startReplica, type Replica } from '../helpers/replica';
import { readSse, type SseFrame } from '../helpers/sse-client';
import { wire } from '../helpers/streams';

let h: Harness;
let replica: Replica;
beforeAll(async () => {
  h = await createHarness();
  replica = await startReplica(h);
}, 60000);
afterAll(async () => {
  await replica?.stop();
  await h?.close();
});

test('the replica is a different process on its own port', async () => {
  expect(replica.pid).not.toBe(process.pid);
  expect(replica.baseUrl).not.toBe(h.baseUrl);
  const health = await fetch(`${replica.baseUrl}/health`);
  expect(health.status).toBe(200);
  // No API_TOKENS: loopback single-user mode, and /health says the secret is the default.
  expect(((await health.json()) as { auth: unknown }).auth).toEqual({
    mode: 'loopback',
    users: 0,
    streamTokenSecret: 'default',
    streamTokenTtlSeconds: 600,
  });
});

test('both replicas serve the same running turn with identical frames; resuming across replicas loses nothing', async () => {
  const { sessionId } = await createProjectAndSession(h);
  const body = Array.from({ length: 40 }, (_, i) => `Line ${i}: gulls over the breakwater.`).join('\n');
  h.model.script([
    {
      match: { agent: 'router' },
      reply: {
        content:
          '{"current_agent":"writer","workflow_plan":"quick","workflow_agents":["writer"],"write_content":true,"read_only":false,"scope":"ch1"}',
      },
    },
    {
      match: { agent: 'writer' },
      reply: {
        content: 'On it.',
        toolCalls: [{ name: 'create_file', arguments: { type: 'draft', title: 'Chapter 1' } }],
      },
    },
    { match: { agent: 'writer' }, reply: { content: `<file>\n${body}\n</file>\nDone.` }, tokensPerSecond: 2000 },
    { match: { agent: 'quality_reviewer' }, reply: { content: 'Fine.' } },
  ]);
  const turnId = await postTurn(h, sessionId, 'Write chapter 1');
  const path = `/api/v1/turns/${turnId}/events`;

  // Live on both at once.
  const [a, b] = await Promise.all([readSse(`${h.baseUrl}${path}`), readSse(`${replica.baseUrl}${path}`)]);
  await waitTurn(h, turnId);
  expect(a.ended && b.ended).toBe(true);
  expect(wire(b.frames)).toBe(wire(a.frames));
  expect(a.frames[a.frames.length - 1]!.event).toBe('done');

  // Late, after the turn: still identical.
  const lateB = await readSse(`${replica.baseUrl}${path}`);
  expect(wire(lateB.frames)).toBe(wire(a.frames));

  // Hop between replicas every 4 events, resuming with Last-Event-ID.
  const hopped: SseFrame[] = [];
  let last: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const base = i % 2 === 0 ? h.baseUrl : replica.baseUrl;
    const r = await readSse(`${base}${path}`, { headers: last ? { 'last-event-id': last } : {}, maxFrames: 4 });
    const kept = r.frames.slice(0, 4);
    hopped.push(...kept);
    last = kept[kept.length - 1]?.id ?? last;
    if (kept.some((f) => f.event === 'done')) break;
  }
  expect(wire(hopped)).toBe(wire(a.frames));
});
