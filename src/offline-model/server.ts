/**
 * The offline model's HTTP server: an OpenAI-compatible `POST /v1/chat/completions`
 * (streaming and not) and `GET /v1/models`, answering from a test's script when there is
 * one and from the default persona otherwise.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { detectAgent } from './conversation';
import { continuationAsk, continueReply } from './continuation';
import { personaReply } from './persona';
import { errorBody, FIXED_CREATED } from './protocol';
import { errorTypeFor, replyFromEntry, replyFromPersona } from './replies';
import { Script } from './script';
import { PrefixCache } from './prefix-cache';
import { dialectFor, PROFILE_HEADER, reasoningTokens, UnknownProfile } from './profiles';
import { countCompletionTokens, countPromptTokens, requestHash } from './tokens';
import { sendCompletion, sendJson, streamCompletion } from './transport';
import {
  chatCompletionRequestSchema,
  OFFLINE_MODEL_ID,
  type ChatCompletionRequest,
  type ModelReply,
  type OfflineModel,
  type OfflineModelLogger,
  type OfflineModelOptions,
  type PersonaOptions,
  type RecordedRequest,
  type Responder,
  type ScriptEntry,
  scriptEntrySchema,
  type Timing,
  type UsageCounts,
} from './types';

/** Large enough for any prompt the engine builds; a guard against runaway clients only. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

const defaultLogger: OfflineModelLogger = {
  info: () => undefined,
  error: (...args: unknown[]) => console.error(...args),
};

class BadRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BadRequest(`request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new BadRequest('request body is not valid JSON');
  }
}

class OfflineModelServer implements OfflineModel {
  baseURL = '';
  port = 0;
  private readonly script_ = new Script();
  private responder: Responder | null = null;
  /** Recent prompts, for the cached-token counts a provider's prefix cache would report. */
  private readonly prefixCache = new PrefixCache();
  private requests_: RecordedRequest[] = [];
  private failures_: string[] = [];
  private readonly waiters = new Set<() => void>();
  private open = 0;
  private timing: Timing;
  private readonly logger: OfflineModelLogger;
  private readonly persona: PersonaOptions;
  readonly server: Server;

  constructor(opts: OfflineModelOptions) {
    this.timing = { ttftMs: opts.ttftMs ?? 300, tokensPerSecond: opts.tokensPerSecond ?? 80 };
    this.logger = opts.logger ?? defaultLogger;
    this.persona = opts.persona ?? {};
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  get requests(): RecordedRequest[] {
    return this.requests_;
  }

  get failures(): string[] {
    return this.failures_;
  }

  script(entries: ScriptEntry[]): void {
    this.script_.append(entries);
  }

  respondWith(responder: Responder | null): void {
    this.responder = responder;
  }

  reset(): void {
    this.script_.clear();
    this.responder = null;
    // New arrays, so a test that kept the old ones still sees what it asserted on.
    this.requests_ = [];
    this.failures_ = [];
  }

  setTiming(t: Partial<Timing>): void {
    this.timing = { ...this.timing, ...t };
  }

  activeResponses(): number {
    return this.open;
  }

  pendingEntries(): number {
    return this.script_.pending();
  }

  waitForRequests(n: number, timeoutMs = 10000): Promise<RecordedRequest[]> {
    if (this.requests_.length >= n) return Promise.resolve(this.requests_.slice());
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.requests_.length < n) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(this.requests_.slice());
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`offline model: waited ${timeoutMs} ms for ${n} requests, got ${this.requests_.length}`));
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  async listen(port: number, host: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
    const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    this.baseURL = `http://${urlHost}:${this.port}/v1`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      // Stalled streams never end on their own; dropping the sockets ends them.
      this.server.closeAllConnections();
    });
  }

  private record(entry: RecordedRequest): void {
    this.requests_.push(entry);
    for (const waiter of [...this.waiters]) waiter();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const controller = new AbortController();
    // `close` also fires after a normal end; aborting then is harmless.
    res.on('close', () => controller.abort());
    // Counted until the handler returns, not until the socket closes: a handler that kept
    // pacing after its client left would show here.
    this.open += 1;
    try {
      const path = new URL(req.url ?? '/', 'http://offline').pathname.replace(/\/+$/, '');
      if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
        sendJson(res, 200, {
          object: 'list',
          data: [{ id: OFFLINE_MODEL_ID, object: 'model', created: FIXED_CREATED, owned_by: 'scriptorium' }],
        });
      } else if (req.method === 'GET' && (path === '' || path === '/health')) {
        sendJson(res, 200, { ok: true, model: OFFLINE_MODEL_ID, scripted: this.script_.scripted });
      } else if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions')) {
        await this.completions(req, res, controller.signal);
      } else {
        sendJson(res, 404, errorBody(`no route for ${req.method ?? 'GET'} ${path || '/'}`, 'not_found_error'));
      }
    } catch (err) {
      if (err instanceof BadRequest) {
        if (!res.headersSent) sendJson(res, 400, errorBody(err.message));
        return;
      }
      this.logger.error('offline model: request failed', err);
      if (!res.headersSent)
        sendJson(res, 500, errorBody(err instanceof Error ? err.message : String(err), 'server_error'));
      else res.destroy();
    } finally {
      this.open -= 1;
    }
  }

  private async completions(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const parsed = chatCompletionRequestSchema.safeParse(await readJson(req));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
      throw new BadRequest(`invalid chat completion request: ${issues}`);
    }
    const received = parsed.data;
    const dialect = this.dialect(req, received);
    // Asked to go on from a partial answer, it answers the request without the partial and
    // sends the rest (continuation.ts).
    const ask = continuationAsk(received);
    const body = ask?.base ?? received;
    const agent = detectAgent(body);
    const recorded: RecordedRequest = {
      agent,
      body: received,
      at: Date.now(),
      profile: dialect.name,
      ...(ask ? { continuation: ask.mode } : {}),
    };
    this.record(recorded);
    const hash = requestHash(body);

    const chosen = this.chooseReply(agent, body, hash, res);
    if (!chosen) return;
    const reply = ask ? continueReply(chosen, ask) : chosen;
    const includeUsage = received.stream_options?.include_usage === true;
    const meta = {
      id: `chatcmpl-${hash.slice(0, 24)}`,
      model: received.model ?? OFFLINE_MODEL_ID,
      dialect,
      includeUsage,
    };
    // The prefix cache sees every request as it arrives; the prompt is counted only when the
    // usage goes out, after the answer: under 50 requests at once, counting each on arrival
    // delayed every first token behind the others' counts (bench:turn --concurrency 50).
    const cachedOf = this.prefixCache.observe(received);
    const usage = (): UsageCounts | null => {
      if (reply.usage !== undefined) return reply.usage;
      const promptTokens = countPromptTokens(received);
      return {
        prompt_tokens: promptTokens,
        completion_tokens: countCompletionTokens(reply),
        cached_tokens: cachedOf(promptTokens),
        reasoning_tokens: reasoningTokens(reply.reasoning),
      };
    };
    if (received.stream) {
      recorded.sentChars = 0;
      await streamCompletion(res, signal, meta, reply, { includeUsage, usage, sent: (n) => (recorded.sentChars = n) });
    } else {
      await sendCompletion(res, signal, meta, reply, usage);
    }
  }

  /** The provider profile a request asked for (profiles.ts); an unknown one is a bad request. */
  private dialect(req: IncomingMessage, body: ChatCompletionRequest) {
    try {
      return dialectFor(req.headers[PROFILE_HEADER], body.model);
    } catch (err) {
      if (err instanceof UnknownProfile) throw new BadRequest(err.message);
      throw err;
    }
  }

  /** The reply to send, or null when an error answer was already written. */
  private chooseReply(
    agent: RecordedRequest['agent'],
    body: ChatCompletionRequest,
    hash: string,
    res: ServerResponse,
  ): ModelReply | null {
    // A responder's answer is checked like a script entry: a typo fails loudly, not oddly.
    if (this.responder) return this.entryReply(scriptEntrySchema.parse(this.responder(agent, body)), hash, res);
    if (!this.script_.scripted) return replyFromPersona(personaReply(agent, body, this.persona), hash, this.timing);
    const found = this.script_.take(agent, body);
    if (found.kind === 'exhausted') {
      this.failures_.push(found.message);
      this.logger.error(found.message);
      sendJson(res, 500, errorBody(found.message, 'server_error', 'offline_script_exhausted'));
      return null;
    }
    return this.entryReply(found.entry, hash, res);
  }

  /** A script entry's reply, or null when it asks for an error answer (written here). */
  private entryReply(entry: ScriptEntry, hash: string, res: ServerResponse): ModelReply | null {
    if (entry.error) {
      sendJson(
        res,
        entry.error.status,
        errorBody(entry.error.message, entry.error.type ?? errorTypeFor(entry.error.status)),
        entry.error.headers,
      );
      return null;
    }
    return replyFromEntry(entry, hash, this.timing);
  }
}

/**
 * Starts an offline model. Scripted when a test calls `script()`, the default persona
 * otherwise. Close it when done; it holds a listening socket.
 */
export async function startOfflineModel(opts: OfflineModelOptions = {}): Promise<OfflineModel> {
  const model = new OfflineModelServer(opts);
  await model.listen(opts.port ?? 0, opts.host ?? '127.0.0.1');
  (opts.logger ?? defaultLogger).info(`offline model listening on ${model.baseURL}`);
  return model;
}
