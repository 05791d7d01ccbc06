/**
 * Renders a turn's events for a terminal: agent switches, the chat text as it streams,
 * file cards, a one-line progress indicator while a file body streams, stops, errors and
 * the usage total.
 *
 * Like a front end, text and cards are separate segments: a card first
 * ends the current text line, and a progress line is rewritten in place (TTY) or printed
 * once when the file is done (pipes, logs), so it never garbles the chat text.
 */
import { agentName, handoffText } from '../core/author-words';
import { type StreamEvent, type StreamEventOf, streamEventSchema } from '../core/events';
import { type RetryVoidedType, STEP_RETRY_VOIDS } from '../core/step-retry';

/** How the retry line names each kind of output a `step_retry` voids, as the terminal showed it. */
const VOIDED_WORDS: Record<RetryVoidedType, string> = {
  content: 'text',
  thinking: 'thinking',
  file_content: 'file progress',
};

export interface RenderOptions {
  write: (s: string) => void;
  /** In-place progress updates with `\r` (only on a terminal). */
  tty: boolean;
  showThinking?: boolean;
}

export class TurnRenderer {
  private atLineStart = true;
  private readonly titles = new Map<string, string>();
  /** The file whose body is streaming right now, and how much of it arrived. */
  private progress: { fileId: string; chars: number; shown: number } | null = null;
  private tokens = { total: 0, estimated: false };
  /** Per step, the kinds of its voidable output this terminal printed (a retry names them). */
  private readonly shown = new Map<number, Set<RetryVoidedType>>();
  status: string | null = null;

  constructor(private readonly opts: RenderOptions) {}

  /** Parses one SSE frame's data; frames that do not match the contract are shown, not fatal. */
  frame(data: string): StreamEvent | null {
    let parsed: StreamEvent;
    try {
      parsed = streamEventSchema.parse(JSON.parse(data));
    } catch {
      this.line(`[unreadable event: ${data.slice(0, 80)}]`);
      return null;
    }
    this.event(parsed);
    return parsed;
  }

  event(e: StreamEvent): void {
    if (e.type !== 'file_content') this.endProgress();
    this.noteShown(e);
    switch (e.type) {
      case 'agent_selected':
        // The agent as people name it; the routing reason is for programs (it stays in the event).
        this.line(`\n▶ ${agentName(e.data.agent, 'en', true)}${e.data.plan ? ` · ${e.data.plan} plan` : ''}`);
        break;
      case 'content':
        this.text(e.data.delta);
        break;
      case 'thinking':
        if (this.opts.showThinking) this.text(e.data.delta);
        break;
      case 'tool_call':
        this.line(`  ⚙ ${e.data.summary}`);
        break;
      case 'tool_result':
        this.toolResult(e.data);
        break;
      case 'file_created':
      case 'file_updated':
        this.fileSaved(e);
        break;
      case 'file_content':
        this.fileProgress(e.data.fileId, e.data.delta.length);
        break;
      case 'handoff':
        // The sentence the engine wrote in the author's language; older streams carry only the fields.
        this.line(`  → ${e.data.text ?? handoffText(e.data, 'en')}`);
        break;
      case 'workflow_stopped':
        this.line(`  ■ stopped: ${e.data.reason} — ${e.data.message}`);
        break;
      case 'steering_received':
        this.line(`  ✎ steering received: ${e.data.message}`);
        break;
      case 'usage':
        this.tokens.total += e.data.totalTokens;
        this.tokens.estimated ||= e.data.source === 'estimate';
        break;
      case 'step_resumed':
        this.line(`  ↻ step ${e.data.step} resumed (attempt ${e.data.attempt}): it goes on from where it stopped`);
        break;
      case 'step_retry':
        this.stepRetried(e);
        break;
      case 'approval_requested':
      case 'approval_decided':
        this.approval(e);
        break;
      case 'job_progress':
        this.line(
          `  ▣ ${e.data.message ?? `Chapter ${e.data.chapter}: ${e.data.status}.`} (${e.data.chaptersDone} of ${e.data.of} done)`,
        );
        break;
      case 'error':
        this.line(`  ✗ error ${e.data.code}: ${e.data.message}`);
        break;
      case 'reset':
        this.line(`  ⟲ the live stream is gone (${e.data.reason}); the final state is at ${e.data.stateUrl}`);
        break;
      case 'suggestions':
        this.line(`\n  Next: ${e.data.items.map((x, i) => `(${i + 1}) ${x}`).join('  ')}`);
        break;
      case 'done':
        this.status = e.data.status;
        this.line(
          `\n✔ ${e.data.status} · ${this.tokens.total} tokens${this.tokens.estimated ? ' (partly estimated)' : ''}`,
        );
        break;
    }
  }

  private noteShown(e: StreamEvent): void {
    const kind = STEP_RETRY_VOIDS.find((t) => t === e.type);
    if (!kind || e.step === undefined || (kind === 'thinking' && !this.opts.showThinking)) return;
    const kinds = this.shown.get(e.step) ?? new Set();
    this.shown.set(e.step, kinds.add(kind));
  }

  /**
   * A printed line cannot be taken back: the retry line says which of the step's output above
   * is void (the contract's kinds it showed). The usage total keeps the earlier attempt: it
   * stands, and the retry does not send it again.
   */
  private stepRetried(e: StreamEventOf<'step_retry'>): void {
    const step = e.step ?? '?';
    const kinds = typeof e.step === 'number' ? [...(this.shown.get(e.step) ?? [])] : [];
    if (typeof e.step === 'number') this.shown.delete(e.step);
    const words = kinds.map((k) => VOIDED_WORDS[k]);
    const list = words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words[0];
    const what = list ? `ignore its ${list} above` : 'it starts over';
    this.line(`  ↻ step ${step} restarted (attempt ${e.data.attempt}): ${what}`);
  }

  /** A saved file: its title is remembered for the progress line, and a card says what was saved. */
  private fileSaved(e: StreamEventOf<'file_created'> | StreamEventOf<'file_updated'>): void {
    this.titles.set(e.data.fileId, e.data.title);
    if (e.type === 'file_created')
      this.line(
        `  📄 created ${e.data.fileType} "${e.data.title}" (id ${e.data.fileId}${e.data.words ? `, ${e.data.words} words` : ''})`,
      );
    else this.line(`  📄 saved "${e.data.title}" · ${e.data.words} words (${e.data.operation})`);
  }

  /** The author is asked (what would change, and its preview), or what they decided. */
  private approval(e: StreamEventOf<'approval_requested'> | StreamEventOf<'approval_decided'>): void {
    if (e.type === 'approval_requested')
      this.line(
        `\n  ? Approval needed: ${e.data.action === 'delete' ? 'delete' : 'rewrite the whole of'} ${e.data.files.map((f) => `"${f.title}"`).join(', ')} (you wrote ${e.data.files.length > 1 ? 'them' : 'it'}).\n    ${e.data.preview.replace(/\n/g, '\n    ')}`,
      );
    else
      this.line(
        `  ${e.data.decision === 'approve' ? '✓ approved' : e.data.decision === 'deny' ? '✗ declined: nothing was changed' : '✗ no answer in time: nothing was changed'}`,
      );
  }

  /**
   * A refusal on purpose is not a failure (the card reads "kept your edits" /
   * "asking first"), and an edit that changed the author's own paragraphs says so, with the
   * version that undoes it.
   */
  private toolResult(d: StreamEventOf<'tool_result'>['data']): void {
    const why = d.message ? ` — ${d.message}` : '';
    if (d.ok) {
      const r = d.result ?? {};
      if (r.author_edits_touched)
        this.line(
          `  ⚠ ${d.name} changed text you wrote${typeof r.previous_version === 'number' ? ` (undo: restore version ${r.previous_version})` : ''}`,
        );
      return;
    }
    if (d.refusal === 'kept_your_edits') this.line(`  ✓ kept your edits (${d.name} not applied)${why}`);
    else if (d.refusal === 'asking_first') this.line(`  ? asking first before changing anything (${d.name})`);
    else if (d.refusal === 'read_only') this.line(`  · read-only turn: ${d.name} not run`);
    else this.line(`  ✗ ${d.name} failed: ${d.errorType ?? 'error'}${why}`);
  }

  /** Ends a half-written line or progress indicator (call before exiting). */
  finish(): void {
    this.endProgress();
    if (!this.atLineStart) this.opts.write('\n');
    this.atLineStart = true;
  }

  private text(s: string): void {
    if (!s) return;
    this.opts.write(s);
    this.atLineStart = s.endsWith('\n');
  }

  private line(s: string): void {
    if (!this.atLineStart) this.opts.write('\n');
    this.opts.write(`${s}\n`);
    this.atLineStart = true;
  }

  private progressText(): string {
    const p = this.progress!;
    return `  [${this.titles.get(p.fileId) ?? p.fileId} … ${p.chars} chars]`;
  }

  private fileProgress(fileId: string, chars: number): void {
    if (this.progress && this.progress.fileId !== fileId) this.endProgress();
    if (!this.progress) {
      if (!this.atLineStart) this.opts.write('\n');
      this.atLineStart = true;
      this.progress = { fileId, chars: 0, shown: 0 };
    }
    this.progress.chars += chars;
    // Redraw at most every 200 chars: a token per frame would flood a slow terminal.
    if (this.opts.tty && this.progress.chars - this.progress.shown >= 200) {
      this.opts.write(`\r${this.progressText()}`);
      this.progress.shown = this.progress.chars;
    }
  }

  private endProgress(): void {
    if (!this.progress) return;
    this.opts.write(`${this.opts.tty ? '\r' : ''}${this.progressText()}\n`);
    this.progress = null;
    this.atLineStart = true;
  }
}
