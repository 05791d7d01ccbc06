/**
 * Redis crash mid-turn (SIGKILL of a private instance with AOF `everysec`). A crash can lose
 * the writes of the last second that never reached the disk; the kernel usually still has
 * them after a mere process kill, so the test makes the loss certain the way a power cut
 * would: it cuts the tail off the AOF before Redis restarts. The turn's publishers, unaware,
 * number on — the stream now has a hole. A late client must be told (`reset`, reason
 * `lost_events`, pointing at the persisted state), never served the hole in silence.
 */
import fs from 'node:fs';
import path from 'node:path';
import { api, createHarness, createProjectAndSession, type Harness, postTurn, waitTurn } from '../helpers/harness';
import { privateRedis, type PrivateService } from '../helpers/private-services';
import { readSse } from '../helpers/sse-client';
import { call, router, words } from '../helpers/script';
import { readRange, turnStreamKey } from '../../src/streams/redis-streams';
import { slotCounts } from '../../src/db/stream-ledger';

jest.setTimeout(180000);
let redis: PrivateService;
let h: Harness;

beforeAll(async () => {
  redis = await privateRedis();
  await redis.start();
  h = await createHarness({ config: { REVIEW_WORD_THRESHOLD: '100000', REDIS_URL: redis.url } });
});
afterAll(async () => {
  await h?.close();
  await redis?.stop();
});

/** Drops the last `fraction` of the incremental AOF: the writes a crash did not get to disk. */
function loseAofTail(dir: string, fraction: number): number {
  const aofDir = path.join(dir, 'appendonlydir');
  const incr = fs.readdirSync(aofDir).find((f) => f.endsWith('.incr.aof'));
  if (!incr) throw new Error(`no incremental AOF in ${aofDir}`);
  const file = path.join(aofDir, incr);
  const size = fs.statSync(file).size;
  const keep = Math.floor(size * (1 - fraction));
  fs.truncateSync(file, keep);
  return size - keep;
}

test('a late client after a Redis crash that lost stream entries gets reset(lost_events), never a silent gap', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    call('writer', 'create_file', { type: 'draft', title: 'Chapter 1' }),
    // ~2 s of streaming: the crash lands in the middle of it.
    { match: { agent: 'writer' }, reply: { content: `<file>\n${words(600)}\n</file>\nSaved.` }, tokensPerSecond: 300 },
  ]);
  const turnId = await postTurn(h, sessionId, 'Write chapter 1');
  await h.model.waitForRequests(3);
  await new Promise((r) => setTimeout(r, 700));
  await redis.stop('SIGKILL');
  expect(loseAofTail(redis.dir, 0.25)).toBeGreaterThan(0);
  await redis.start();
  expect((await waitTurn(h, turnId)).status).toBe('completed');

  // The premise: the stream really lost entries the publishers wrote.
  const key = turnStreamKey(h.config.REDIS_KEY_PREFIX, turnId);
  const onRecord = [...(await slotCounts(h.runtime.models, key)).values()].reduce((a, b) => a + b, 0);
  const held = (await readRange(h.runtime.redis, key, null, 100000)).length;
  expect(held).toBeLessThan(onRecord);

  const late = await readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`, { timeoutMs: 30000 });
  const last = late.frames[late.frames.length - 1]!;
  expect(last.event).toBe('reset');
  const reset = JSON.parse(last.data) as { data: { reason: string; stateUrl: string; lastAvailableId: string | null } };
  expect(reset.data).toMatchObject({ reason: 'lost_events', stateUrl: `/api/v1/turns/${turnId}` });
  // What it was sent before the reset has no hole: each slot from 0, each index the next.
  const ids = late.frames.slice(0, -1).map((f) => f.id!.split('-').map(Number) as [number, number]);
  ids.forEach(([slot, index], i) => {
    const prev = ids[i - 1];
    expect(prev && prev[0] === slot ? index === prev[1] + 1 : index === 0).toBe(true);
  });
  expect(late.frames.some((f) => f.event === 'done')).toBe(false);

  // The persisted state it is pointed at is whole, and resuming at the stream's end is not another reset.
  const state = await api<{ status: string }>(h, 'GET', reset.data.stateUrl);
  expect(state.body.status).toBe('completed');
  const file = await h.runtime.models.File.findOne({ projectId }).lean();
  expect(file?.words).toBe(600);
  const resumed = await fetch(`${h.baseUrl}/api/v1/turns/${turnId}/events`, {
    headers: { 'last-event-id': reset.data.lastAvailableId! },
  });
  expect(resumed.status).toBe(204);
});
