/**
 * A streamed answer counts as one of its worker's open streams (which widen every stream's
 * batch window, batching-publisher.ts `StreamLoad`) while the model answers, and stops counting
 * when the answer ends, however it ends: a stream left counted would widen every later
 * stream's window for the worker's whole life.
 */
import { streamAnswer, type AnswerRequest } from '../../src/activities/step/llm-stream';
import { createWorkerCaches } from '../../src/activities/worker-caches';
import type { ActivityDeps } from '../../src/activities/deps';
import type { AnyEventDraft } from '../../src/core/events';

type Chunk = { choices: { delta: { content?: string }; finish_reason?: string | null }[]; usage?: unknown };

/** A model client whose stream yields the given chunks, then ends or fails. */
function deps(chunks: Chunk[], opts: { failAfter?: boolean; seen?: number[] } = {}) {
  const caches = createWorkerCaches();
  const create = async () =>
    (async function* () {
      for (const c of chunks) {
        opts.seen?.push(caches.streamLoad.streams);
        yield c;
      }
      if (opts.failAfter) throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
    })();
  const d = {
    caches,
    config: { LLM_STREAM_IDLE_SECONDS: 0, OPENAI_MODEL: 'offline', STREAM_BATCHES_PER_SECOND: 400 },
    llm: { chat: { completions: { create } } },
    faults: null,
  } as unknown as ActivityDeps;
  return { d, caches };
}

function request(published: AnyEventDraft[]): AnswerRequest {
  return {
    input: {
      agent: 'writer',
      scope: { readOnly: false, clarifyFirst: false },
      pendingFileId: null,
      holdChat: false,
      runTools: null,
    },
    attempt: 1,
    messages: [],
    language: 'en',
    publisher: { publish: async (events: AnyEventDraft[]) => (published.push(...events), []) },
    stamp: (e: AnyEventDraft) => e,
    beat: { chars: 0, tools: false },
    signal: new AbortController().signal,
    siblingCounts: { start: () => undefined },
    storeContext: async () => undefined,
    checkpoint: null,
    resume: null,
  } as unknown as AnswerRequest;
}

const text = (t: string): Chunk => ({ choices: [{ delta: { content: t } }] });

describe('streamAnswer and the worker’s stream load', () => {
  it('counts the answer as an open stream while it streams, and not once it has ended', async () => {
    const seen: number[] = [];
    const { d, caches } = deps(
      [text('The harbour'), text(' at dawn.'), { choices: [{ delta: {}, finish_reason: 'stop' }] }],
      { seen },
    );
    const published: AnyEventDraft[] = [];
    const answer = await streamAnswer(d, request(published));
    expect(answer.chatText).toBe('The harbour at dawn.');
    expect(seen).toEqual([1, 1, 1]);
    expect(caches.streamLoad.streams).toBe(0);
  });

  it('stops counting an answer whose stream failed', async () => {
    const { d, caches } = deps([text('Half a sen')], { failAfter: true });
    await expect(streamAnswer(d, request([]))).rejects.toBeDefined();
    expect(caches.streamLoad.streams).toBe(0);
  });
});
