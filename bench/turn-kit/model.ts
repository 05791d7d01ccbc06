/**
 * The model side of `bench:turn`: one offline model (src/offline-model), timed at its own
 * HTTP server and shared by every contender.
 *
 * Byte-identical model behaviour: the turn's eight replies are taken once from the
 * default persona (a recording turn), then played back from the offline model's script.
 * Entries match by agent and by the phase the request shows (a continuation marker, a
 * `create_file` result, neither), so any number of concurrent turns — ours or the peer's —
 * each get exactly the same eight answers with the same usage, whatever ids their prompts
 * carry. A request outside that shape exhausts the script and fails loudly.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FILE_STREAM_CONTINUATION_MARKER } from '../../src/core/model/markers';
import { countPromptTokens, countCompletionTokens } from '../../src/offline-model/tokens';
import {
  personaReply,
  startOfflineModel,
  type AgentName,
  type OfflineModel,
  type RecordedRequest,
  type ScriptEntry,
} from '../../src/offline-model';

export type Phase = 'route' | 'open' | 'stream' | 'summary' | 'review';

/** One of the turn's model calls, as recorded. */
export interface RecordedCall {
  agent: AgentName;
  phase: Phase;
  body: RecordedRequest['body'];
  reply: { content: string; toolCalls: { name: string; arguments: Record<string, unknown> }[] };
  usage: { prompt_tokens: number; completion_tokens: number };
}

/** Marks in a request that tell the phase of a file agent's run (see file-agents.ts of the persona). */
const STREAM_MARK = 'next_step';

export function phaseOf(agent: AgentName | null, body: RecordedRequest['body']): Phase {
  if (agent === 'router') return 'route';
  if (agent === 'quality_reviewer') return 'review';
  const text = body.messages
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')))
    .join('\n');
  if (text.includes(FILE_STREAM_CONTINUATION_MARKER)) return 'summary';
  if (body.messages.some((m) => m.role === 'tool' && typeof m.content === 'string' && m.content.includes(STREAM_MARK)))
    return 'stream';
  return 'open';
}

/** The recorded turn's calls, from the persona's answers to the requests our engine sent. */
export function recordCalls(requests: RecordedRequest[], chapterWords: number): RecordedCall[] {
  return requests.map((r) => {
    const reply = personaReply(r.agent, r.body, { chapterWords });
    const wire = {
      content: reply.content,
      reasoning: '',
      toolCalls: reply.toolCalls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.arguments) })),
    };
    return {
      agent: r.agent!,
      phase: phaseOf(r.agent, r.body),
      body: r.body,
      reply,
      usage: { prompt_tokens: countPromptTokens(r.body), completion_tokens: countCompletionTokens(wire) },
    };
  });
}

const PHASE_ORDER: Phase[] = ['summary', 'stream', 'open', 'route', 'review'];

/**
 * Script entries for `turns` turns. More specific phases come first: the offline model
 * takes the first entry that fits, and an `open` entry (agent only) fits every request
 * of its agent.
 */
export function scriptFor(calls: RecordedCall[], turns: number): ScriptEntry[] {
  const sorted = [...calls].sort((a, b) => PHASE_ORDER.indexOf(a.phase) - PHASE_ORDER.indexOf(b.phase));
  const entries: ScriptEntry[] = [];
  for (const c of sorted) {
    const contains =
      c.phase === 'summary' ? FILE_STREAM_CONTINUATION_MARKER : c.phase === 'stream' ? STREAM_MARK : undefined;
    const entry: ScriptEntry = {
      match: { agent: c.agent, ...(contains ? { contains } : {}) },
      reply: { content: c.reply.content, toolCalls: c.reply.toolCalls, usage: c.usage },
    };
    for (let i = 0; i < turns; i++) entries.push(entry);
  }
  return entries;
}

/** One model request as its server saw it: start, first byte of the answer, end (performance.now()). */
export interface Span {
  start: number;
  firstByte: number;
  end: number;
}

/** Spans of the answered requests, and each streamed answer's time to its first text or tool call. */
export interface RequestTimes {
  spans: Span[];
  ttfts: number[];
}

/** The first SSE chunk that carries text or a tool call (not the role chunk before it). */
const FIRST_TOKEN = /"(?:content|reasoning_content)":"[^"]|"tool_calls"/;

/**
 * Times every request at the offline model's own server. A proxy in front of the model
 * used to do this, but it read and wrote every streamed chunk a second time on the
 * benchmarked machine: CPU a deployment's remote model never costs the engine's cores.
 */
export function timeRequests(model: OfflineModel): RequestTimes {
  const times: RequestTimes = { spans: [], ttfts: [] };
  model.server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    const span: Span = { start: performance.now(), firstByte: 0, end: 0 };
    let sawToken = false;
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      const now = performance.now();
      if (!span.firstByte) span.firstByte = now;
      if (!sawToken && FIRST_TOKEN.test(String(chunk))) {
        sawToken = true;
        times.ttfts.push(now - span.start);
      }
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    res.once('finish', () => {
      span.end = performance.now();
      // An answer sent whole (not streamed) arrives with its end.
      if (!span.firstByte) span.firstByte = span.end;
      times.spans.push(span);
    });
  });
  return times;
}

export interface ModelRig {
  model: OfflineModel;
  /** Base URL of the model: what every contender talks to. */
  url: string;
  spans: Span[];
  close(): Promise<void>;
}

/** The offline model, timed at its server (every request's span). */
export async function startModelRig(chapterWords: number): Promise<ModelRig> {
  const model = await startOfflineModel({ ttftMs: 0, tokensPerSecond: 1e6, persona: { chapterWords } });
  return { model, url: model.baseURL, spans: timeRequests(model).spans, close: () => model.close() };
}

/** Total time covered by spans (requests of one turn are sequential, but do not assume it). */
export function union(spans: { start: number; end: number }[]): number {
  const s = [...spans].sort((a, b) => a.start - b.start);
  let total = 0;
  let end = -Infinity;
  for (const { start, end: e } of s) {
    if (start > end) {
      total += e - start;
      end = e;
    } else if (e > end) {
      total += e - end;
      end = e;
    }
  }
  return total;
}
