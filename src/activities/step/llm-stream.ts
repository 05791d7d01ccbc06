/**
 * One streamed model answer for an LLM step: the request, then each chunk turned into the
 * author's live events as it arrives — chat text shaped for the author as `content`, `<file>`
 * bodies as `file_content`, reasoning as `thinking` — while tool calls are assembled. The
 * heartbeat's `beat` carries the stream position, visible in Temporal UI while the step runs.
 */
import type OpenAI from 'openai';
import { AuthorTextShaper } from '../../agents/author-facing-text';
import { FileStreamProcessor, type StreamPiece } from '../../core/model/file-stream';
import { toolsForTurn } from '../../core/model/tool-schemas';
import { type AnyEventDraft, draft } from '../../core/events';
import type { LlmStepInput } from '../../core/turn/turn-types';
import type { ActivityDeps } from '../deps';
import { classifyLlmError } from './llm-errors';
import { BatchingPublisher } from '../stream/batching-publisher';
import type { CountingPublisher } from '../stream/publish';
import type { EarlySiblingCounts } from '../tools/sibling-counts';
import { type ContinuationStrategy, continuationRequest, OverlapTrimmer } from '../../core/model/continuation';
import type { StepCheckpoint } from './step-partial';
import { IdleWatch } from './stream-idle';

export interface AssembledCall {
  id: string;
  name: string;
  arguments: string;
}

/** What the heartbeat reports while the step runs. */
export interface StepBeat {
  chars: number;
  tools: boolean;
}

export interface AnswerRequest {
  input: LlmStepInput;
  attempt: number;
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[];
  language: string;
  publisher: CountingPublisher;
  stamp: (d: AnyEventDraft) => AnyEventDraft;
  beat: StepBeat;
  signal: AbortSignal;
  siblingCounts: EarlySiblingCounts;
  /** Puts a context this step built on record; started once the request is out. */
  storeContext: () => Promise<unknown>;
  /** Where the answer's text is checkpointed with each published batch (null: not resumable, `LLM_CONTINUATION=off`). */
  checkpoint: StepCheckpoint | null;
  /** The text an earlier attempt streamed, to go on from (step-partial.ts). */
  resume: { text: string; strategy: Exclude<ContinuationStrategy, 'off'> } | null;
}

export interface StreamedAnswer {
  /** Everything the model wrote, as it wrote it. */
  rawContent: string;
  /** The author-facing chat text, shaped (held text is stored shaped too). */
  chatText: string;
  calls: AssembledCall[];
  usage: OpenAI.CompletionUsage | undefined;
  finishReason: string;
  /** The `<file>` body captured for the step's pending file, and whether it closed. */
  processor: FileStreamProcessor;
}

/**
 * The step's batched output: its window follows the worker's open streams (`StreamLoad`), and
 * each batch carries the model text behind it as the step's checkpoint (step-partial.ts).
 */
function streamOutput(deps: ActivityDeps, req: AnswerRequest, answer: StreamedAnswer): BatchingPublisher {
  const { checkpoint } = req;
  return new BatchingPublisher(req.publisher, {
    lingerMs: () => deps.caches.streamLoad.lingerMs(deps.config.STREAM_BATCHES_PER_SECOND),
    alongside: checkpoint ? () => checkpoint.alongside(answer.rawContent) : undefined,
  });
}

type ChatChunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/** One answer as it streams in: the text shaped and published, the tool calls assembled, the position reported. */
class AnswerStream {
  readonly answer: StreamedAnswer;
  readonly out: BatchingPublisher;
  position = 0;
  private readonly processor: FileStreamProcessor;
  private readonly shaper: AuthorTextShaper;
  private readonly trimmer: OverlapTrimmer | null;
  private midStream = false;
  // While the kept text is fed again, nothing is published: its events are on the stream.
  private replaying = false;

  constructor(
    deps: ActivityDeps,
    private readonly req: AnswerRequest,
  ) {
    const { input, resume } = req;
    this.processor = new FileStreamProcessor(input.pendingFileId !== null);
    this.shaper = new AuthorTextShaper({
      separate: input.textBefore ?? false,
      dropEnglishProcess: req.language === 'zh',
      afterToolCalls: input.afterToolCalls ?? false,
    });
    this.answer = {
      rawContent: '',
      chatText: '',
      calls: [],
      usage: undefined,
      finishReason: 'stop',
      processor: this.processor,
    };
    this.out = streamOutput(deps, req, this.answer);
    if (resume) this.replay(resume.text);
    // A model asked by instruction to go on often repeats the last words first.
    this.trimmer = resume?.strategy === 'instruction' ? new OverlapTrimmer(resume.text) : null;
  }

  /**
   * The processors end up where the earlier attempt left them: the same text published,
   * the same text still held back (a possible `</file>`, shaping not yet decided).
   */
  private replay(text: string): void {
    this.replaying = true;
    this.answer.rawContent = text;
    this.emit(this.processor.push(text));
    this.replaying = false;
  }

  /** What the author sees is the shaped text, live and as stored. */
  private say(text: string): void {
    if (!text) return;
    this.answer.chatText += text;
    if (!this.req.input.holdChat && !this.replaying) this.out.add(this.req.stamp(draft('content', { delta: text })));
  }

  private emit(pieces: StreamPiece[]): void {
    const { input, stamp } = this.req;
    for (const p of pieces) {
      if (p.kind === 'chat') this.say(this.shaper.push(p.text));
      else if (p.kind === 'open') this.say(this.shaper.fileOpened());
      else if (p.kind === 'close') this.shaper.fileClosed();
      else if (!this.replaying)
        this.out.add(stamp(draft('file_content', { fileId: input.pendingFileId!, delta: p.text })));
    }
  }

  private take(text: string): void {
    if (!text) return;
    this.answer.rawContent += text;
    this.emit(this.processor.push(text));
  }

  /** One chunk: its usage, thinking, text, tool-call pieces and finish reason. False: a chunk with no choice. */
  onChunk(chunk: ChatChunk): boolean {
    const { stamp, beat } = this.req;
    if (chunk.usage) this.answer.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) return false;
    // Thinking comes as DeepSeek's `reasoning_content`, or as `reasoning` (vLLM since v0.11, Ollama).
    const delta = choice.delta as typeof choice.delta & {
      reasoning_content?: string | null;
      reasoning?: string | null;
    };
    const thinking = delta.reasoning_content || delta.reasoning;
    if (thinking) this.out.add(stamp(draft('thinking', { delta: thinking })));
    if (delta.content) {
      this.position += delta.content.length;
      beat.chars = this.position;
      this.take(this.trimmer ? this.trimmer.push(delta.content) : delta.content);
    }
    this.onToolCalls(delta.tool_calls ?? []);
    if (choice.finish_reason) this.answer.finishReason = choice.finish_reason;
    return true;
  }

  /** Pieces of tool calls, assembled by index. */
  private onToolCalls(toolCalls: OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall[]): void {
    const { input, beat, checkpoint } = this.req;
    for (const tc of toolCalls) {
      checkpoint?.markToolCall();
      const slot = (this.answer.calls[tc.index] ??= { id: '', name: '', arguments: '' });
      if (tc.id) slot.id = tc.id;
      if (tc.function?.name) {
        slot.name += tc.function.name;
        // Only a step that runs its calls itself takes the read (the workflow's executeTool does not).
        if (slot.name === 'create_file' && input.runTools) this.req.siblingCounts.start();
      }
      if (tc.function?.arguments) {
        slot.arguments += tc.function.arguments;
        this.position += tc.function.arguments.length;
        beat.chars = this.position;
      }
    }
  }

  /**
   * Crash tests: the text so far is on the stream (and checkpointed) when the fault fires,
   * as when a worker dies while its author reads the chapter coming in.
   */
  async faultMidStream(faults: NonNullable<ActivityDeps['faults']>): Promise<void> {
    const { input } = this.req;
    if (!this.midStream) await this.out.flush();
    this.midStream = true;
    faults.hit('llm.mid_stream', {
      agent: input.agent,
      run: input.run,
      kind: input.runKind,
      attempt: this.req.attempt,
    });
  }

  /** The text held back to the end let go, the shaping closed, and everything published and checkpointed. */
  async end(): Promise<void> {
    if (this.trimmer) this.take(this.trimmer.end());
    this.emit(this.processor.end());
    this.say(this.shaper.end(this.answer.calls.some((c) => c.name)));
    await Promise.all([this.out.flush(), this.req.checkpoint?.settle()]);
  }
}

/** The streamed request: a fresh one, or one that goes on from the text an earlier attempt streamed. */
function requestAnswer(deps: ActivityDeps, req: AnswerRequest, idle: IdleWatch) {
  const { input, resume } = req;
  const request = resume
    ? continuationRequest(resume.strategy, req.messages, resume.text)
    : { messages: req.messages, body: {} };
  return deps.llm.chat.completions.create(
    {
      ...request.body,
      model: deps.config.OPENAI_MODEL,
      messages: request.messages as OpenAI.Chat.Completions.ChatCompletionMessageParam[],
      tools: toolsForTurn({ readOnly: input.scope.readOnly, clarifyFirst: input.scope.clarifyFirst }),
      stream: true,
      stream_options: { include_usage: true },
    },
    { signal: idle.signal(req.signal) },
  );
}

/** Streams one answer; a cancelled step fails as cancelled, never with a cut-off answer. */
export async function streamAnswer(deps: ActivityDeps, req: AnswerRequest): Promise<StreamedAnswer> {
  const live = new AnswerStream(deps, req);
  const idle = new IdleWatch(deps.config.LLM_STREAM_IDLE_SECONDS);
  const leave = deps.caches.streamLoad.enter();
  try {
    const stream = await requestAnswer(deps, req, idle);
    // A context this step built goes on record while the model answers: started only now,
    // it does not compete with the step's reads and the request on the path to the first token.
    void req.storeContext();
    for await (const chunk of stream) {
      idle.touch();
      if (!live.onChunk(chunk)) continue;
      if (live.position >= 40 && deps.faults) await live.faultMidStream(deps.faults);
    }
    // An aborted request can end the stream quietly: a cancelled step (interrupt, worker
    // shutdown) must fail as cancelled, never complete with a cut-off answer or file.
    if (req.signal.aborted) throw req.signal.reason;
    idle.check();
    await live.end();
  } catch (err) {
    await live.out.flush().catch(() => undefined);
    throw classifyLlmError(idle.failure(err, req.signal));
  } finally {
    leave();
    idle.stop();
    req.beat.chars = live.position;
  }
  return live.answer;
}
