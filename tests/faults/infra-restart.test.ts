/**
 * Infrastructure restarts mid-turn, each on a private instance of the real service:
 * - the Temporal dev server stops and restarts (its database file keeps the state);
 * - Redis restarts (AOF): the SSE client's stream continues or resets explicitly;
 * - MongoDB (FerretDB) is unreachable for a few seconds during a tool call.
 * In every case the turn completes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHarness, createProjectAndSession, type Harness, postTurn, ROOT, turnEvents } from '../helpers/harness';
import { privateFerret, privateRedis, privateTemporal, type PrivateService } from '../helpers/private-services';
import { readSse } from '../helpers/sse-client';
import { call, router, say, words } from '../helpers/script';

jest.setTimeout(180000);

async function waitDone(h: Harness, turnId: string, timeoutMs = 120000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const t = await h.runtime.models.Turn.findById(turnId)
      .lean()
      .catch(() => null);
    if (t && !['queued', 'running'].includes(t.status)) return t.status;
    if (Date.now() - start > timeoutMs) throw new Error(`turn ${turnId} did not finish`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const longWriterScript = () => [
  router({ current_agent: 'writer', workflow_plan: 'quick' }),
  call('writer', 'create_file', { type: 'draft', title: 'Chapter 1' }),
  // ~3 s of streaming so the restart lands mid-turn.
  {
    match: { agent: 'writer' as const },
    reply: { content: `<file>\n${words(600)}\n</file>\nSaved.` },
    tokensPerSecond: 400,
  },
];

describe('Temporal dev server restart mid-turn', () => {
  let temporal: PrivateService;
  let h: Harness;
  beforeAll(async () => {
    temporal = await privateTemporal();
    await temporal.start();
    h = await createHarness({
      config: {
        REVIEW_WORD_THRESHOLD: '100000',
        TEMPORAL_ADDRESS: temporal.url,
        TEMPORAL_NAMESPACE: 'default' /* a private server: only default exists */,
        LLM_HEARTBEAT_TIMEOUT_SECONDS: '5',
        STORE_HEARTBEAT_TIMEOUT_SECONDS: '5',
      },
    });
  });
  afterAll(async () => {
    await h?.close();
    await temporal?.stop();
  });

  test('the turn completes after the server comes back with its database', async () => {
    const { sessionId, projectId } = await createProjectAndSession(h);
    h.model.script(longWriterScript());
    const turnId = await postTurn(h, sessionId, 'Write chapter 1');
    await h.model.waitForRequests(3);
    await new Promise((r) => setTimeout(r, 500));
    await temporal.stop();
    await new Promise((r) => setTimeout(r, 1500));
    await temporal.start();
    expect(await waitDone(h, turnId)).toBe('completed');
    const file = await h.runtime.models.File.findOne({ projectId }).lean();
    expect(file?.words).toBe(600);
    expect(await h.runtime.models.FileVersion.countDocuments({ fileId: String(file!._id) })).toBe(1);
  });
});

describe('Redis restart mid-turn', () => {
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

  test('the connected SSE client sees the stream continue without a gap, or an explicit reset', async () => {
    const { sessionId } = await createProjectAndSession(h);
    h.model.script(longWriterScript());
    const turnId = await postTurn(h, sessionId, 'Write chapter 1');
    const sse = readSse(`${h.baseUrl}/api/v1/turns/${turnId}/events`, { timeoutMs: 120000 });
    await h.model.waitForRequests(3);
    await new Promise((r) => setTimeout(r, 500));
    await redis.stop();
    await new Promise((r) => setTimeout(r, 1000));
    await redis.start();
    expect(await waitDone(h, turnId)).toBe('completed');
    const got = await sse;
    const full = await turnEvents(h, turnId);
    const reset = got.frames.find((f) => f.event === 'reset');
    if (reset) {
      // Explicit: the client is told to reload the persisted state.
      expect(JSON.parse(reset.data).data.stateUrl).toBe(`/api/v1/turns/${turnId}`);
    } else {
      // No gap: the client saw exactly the stream's events, in order, ending with done.
      expect(got.frames.map((f) => JSON.parse(f.data).seq)).toEqual(full.map((e) => e.seq));
      expect(got.frames[got.frames.length - 1]!.event).toBe('done');
    }
  });
});

const ferretAvailable = fs.existsSync(path.join(ROOT, '.local/bin/ferretdb'));
(ferretAvailable ? describe : describe.skip)('MongoDB unreachable during a tool', () => {
  let mongo: PrivateService;
  let h: Harness;
  beforeAll(async () => {
    mongo = await privateFerret();
    await mongo.start();
    h = await createHarness({ config: { MONGODB_URI: mongo.url, STORE_HEARTBEAT_TIMEOUT_SECONDS: '5' } });
  });
  afterAll(async () => {
    await h?.close();
    await mongo?.stop();
  });

  test('the tool activity retries and the turn completes', async () => {
    const { sessionId, projectId } = await createProjectAndSession(h);
    h.model.script([
      router({ current_agent: 'writer', workflow_plan: 'quick' }),
      {
        ...call('writer', 'create_file', { type: 'character', title: 'Mara', content: 'Mara builds boats.' }),
        ttftMs: 300,
      },
      say('writer', 'Mara is saved.'),
    ]);
    const turnId = await postTurn(h, sessionId, 'Add a character called Mara');
    await h.model.waitForRequests(2);
    // Down while the step's transcript is saved and the create_file tool runs.
    await mongo.stop();
    await new Promise((r) => setTimeout(r, 3000));
    await mongo.start();
    expect(await waitDone(h, turnId)).toBe('completed');
    const files = await h.runtime.models.File.find({ projectId }).lean();
    expect(files.map((f) => [f.title, f.content, f.versionCount])).toEqual([['Mara', 'Mara builds boats.', 1]]);
    const events = await turnEvents(h, turnId);
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(1);
  });
});
