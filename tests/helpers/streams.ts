/**
 * Stream helpers for API tests: synthetic turns (a Turn document plus events published
 * with the real StreamPublisher, no workflow), a resuming SSE reader, and Redis client
 * counting for "the reader connection is released" checks.
 */
import type { Redis } from 'ioredis';
import { newId } from '../../src/db/models';
import type { AnyEventDraft } from '../../src/core/events';
import { StreamPublisher, turnStreamKey } from '../../src/streams/redis-streams';
import { readerConnectionName } from '../../src/api/stream-hub';
import type { Harness } from './harness';
import { readSse, type SseFrame } from './sse-client';

export interface SyntheticTurn {
  turnId: string;
  key: string;
  url: string;
  /** Publishes drafts in the given slot (each call a fresh publisher, like an activity). */
  publish(slot: number, drafts: AnyEventDraft[]): Promise<string[]>;
  setStatus(status: string): Promise<void>;
}

export async function syntheticTurn(
  h: Harness,
  opts: { ownerId?: string; status?: string; maxLen?: number } = {},
): Promise<SyntheticTurn> {
  const turnId = newId();
  await h.runtime.models.Turn.create({
    _id: turnId,
    sessionId: newId(),
    projectId: newId(),
    ownerId: opts.ownerId ?? 'local',
    message: 'synthetic',
    status: opts.status ?? 'running',
    workflowId: `turn-${turnId}`,
  });
  const key = turnStreamKey(h.config.REDIS_KEY_PREFIX, turnId);
  return {
    turnId,
    key,
    url: `${h.baseUrl}/api/v1/turns/${turnId}/events`,
    publish: (slot, drafts) =>
      new StreamPublisher(h.runtime.redis, key, slot, { maxLen: opts.maxLen ?? 100000 }).publish(drafts),
    setStatus: async (status) => {
      await h.runtime.models.Turn.updateOne({ _id: turnId }, { $set: { status } });
    },
  };
}

/** A `content` draft for a synthetic turn. */
export const contentDraft = (turnId: string, delta: string): AnyEventDraft => ({
  type: 'content',
  data: { delta },
  turnId,
  agent: 'writer',
  step: 1,
});
export const doneDraft = (turnId: string, status = 'completed'): AnyEventDraft => ({
  type: 'done',
  data: { status },
  turnId,
});

/** Serialises frames exactly as they arrived, for byte-for-byte comparisons. */
export const wire = (frames: SseFrame[]): string =>
  frames.map((f) => `${f.id ?? ''}|${f.event ?? ''}|${f.data}`).join('\n');

/**
 * Reads a stream the way a flaky client would: drops the connection after every `k`
 * frames and resumes with Last-Event-ID, until the stream ends. Returns every frame and
 * the number of connections it took.
 */
export async function readResuming(
  url: string,
  k: number,
  headers: Record<string, string> = {},
  maxConnections = 10000,
) {
  const frames: SseFrame[] = [];
  let last: string | undefined;
  for (let connections = 1; connections <= maxConnections; connections++) {
    const r = await readSse(url, { headers: { ...headers, ...(last ? { 'last-event-id': last } : {}) }, maxFrames: k });
    if (r.status !== 200) throw new Error(`resume answered ${r.status}`);
    // One network chunk can hold many frames: the client keeps exactly k, as if the line died there.
    const kept = r.frames.slice(0, k);
    frames.push(...kept);
    if (kept.length) last = kept[kept.length - 1]!.id;
    if (kept.some((f) => f.event === 'done' || f.event === 'reset') || (r.ended && r.frames.length <= k))
      return { frames, connections };
  }
  throw new Error(`stream did not end within ${maxConnections} connections`);
}

/** Redis connections currently open as SSE readers of `key` (CLIENT LIST, by name). */
export async function readerConnections(redis: Redis, key: string): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  const name = readerConnectionName(key);
  return list.split('\n').filter((line) => line.includes(` name=${name} `)).length;
}

export async function waitFor(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 5000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
