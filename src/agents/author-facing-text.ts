/**
 * Author-facing text: shapes one LLM
 * step's chat text as it streams, before it is published or stored.
 *
 * - A blank line separates this step's text from text the author already saw in the turn
 *   (another role's text, or the same agent's text before its tool calls). Whitespace at
 *   the edges of a step is trimmed, so the separator is always exactly one blank line.
 * - When the author writes Chinese, English process sentences next to tool calls ("Now
 *   create the … file.", "Let me read the outline.") are not sent: English sentences are
 *   held until it is clear what they are next to. Dropped when a tool call or a `<file>`
 *   block follows them, or when they open a step that follows tool calls and real text
 *   comes after them; sent otherwise (an all-English answer is still an answer).
 *
 * Deterministic: the output depends only on the options and the text pushed, so a retried
 * step publishes the same text under the same stream ids. Pure module.
 */

export interface ShaperOptions {
  /** Text was already shown to the author earlier in this turn. */
  separate: boolean;
  /** The author writes Chinese: English process sentences next to tool calls are dropped. */
  dropEnglishProcess: boolean;
  /** This step follows the agent's tool calls: its opening English sentences are narration. */
  afterToolCalls: boolean;
}

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;
const SENTENCE_END = /[.!?。！？\n]/;

/** An English sentence that narrates the agent's own process: starts with a letter, two words or more, no CJK. */
export function isEnglishProcessSentence(sentence: string): boolean {
  const t = sentence.trim();
  if (!t || CJK.test(t) || !/^[A-Za-z]/.test(t)) return false;
  return (t.match(/[A-Za-z]+(?:['’][A-Za-z]+)?/g) ?? []).length >= 2;
}

export class AuthorTextShaper {
  private started = false;
  private pendingSpace = '';
  private sentence = '';
  private sentenceIsContent = false;
  private heldEnglish = '';
  private leading: boolean;

  constructor(private readonly opts: ShaperOptions) {
    this.leading = opts.afterToolCalls;
  }

  /** Chat text from the model; returns what may be sent now. */
  push(text: string): string {
    if (!this.opts.dropEnglishProcess) return this.out(text);
    let sent = '';
    for (const ch of text) {
      this.sentence += ch;
      if (!this.sentenceIsContent && CJK.test(ch)) {
        // Chinese text: whatever English came before it is settled now, and this sentence streams.
        sent += this.settleHeld(false) + this.out(this.sentence);
        this.sentence = '';
        this.sentenceIsContent = true;
        this.leading = false;
      } else if (this.sentenceIsContent) {
        sent += this.out(ch);
        this.sentence = '';
      }
      if (SENTENCE_END.test(ch)) sent += this.finishSentence();
    }
    return sent;
  }

  /** A `<file>` block opens: English right before it narrates the write. */
  fileOpened(): string {
    this.heldEnglish = '';
    if (this.sentence.trim() && !this.sentenceIsContent && isEnglishProcessSentence(this.sentence)) this.sentence = '';
    return this.opts.dropEnglishProcess ? this.finishSentence() : '';
  }

  /** A `<file>` block closed: English right after it narrates the write too. */
  fileClosed(): void {
    this.leading = this.opts.dropEnglishProcess;
  }

  /** End of the step's text; `toolCallsFollow`: the step ends in tool calls. Returns the rest to send. */
  end(toolCallsFollow: boolean): string {
    let sent = this.opts.dropEnglishProcess ? this.finishSentence() : '';
    if (toolCallsFollow) this.heldEnglish = '';
    sent += this.settleHeld(true);
    this.pendingSpace = '';
    return sent;
  }

  private finishSentence(): string {
    const s = this.sentence;
    const wasContent = this.sentenceIsContent;
    this.sentence = '';
    this.sentenceIsContent = false;
    if (wasContent || !s) return '';
    if (isEnglishProcessSentence(s)) {
      this.heldEnglish += s;
      return '';
    }
    if (!s.trim()) {
      // Spacing between sentences belongs with the held English, if any.
      if (this.heldEnglish) this.heldEnglish += s;
      else return this.out(s);
      return '';
    }
    // Other text (a list line, a number, a title) is content like Chinese text.
    const sent = this.settleHeld(false) + this.out(s);
    this.leading = false;
    return sent;
  }

  /** Held English before real text: dropped when it opens a step after tool calls, else sent. */
  private settleHeld(atEnd: boolean): string {
    const held = this.heldEnglish;
    this.heldEnglish = '';
    if (!held) return '';
    if (this.leading && !atEnd) return '';
    return this.out(held);
  }

  /** Trims the step's edges and puts one blank line before its first text when text came before. */
  private out(text: string): string {
    if (!text) return '';
    let t = text;
    let prefix = '';
    if (!this.started) {
      t = t.replace(/^\s+/, '');
      if (!t) return '';
      this.started = true;
      prefix = this.opts.separate ? '\n\n' : '';
    }
    const body = t.replace(/\s+$/, '');
    const space = t.slice(body.length);
    if (!body) {
      this.pendingSpace += space;
      return '';
    }
    const sent = prefix + this.pendingSpace + body;
    this.pendingSpace = space;
    return sent;
  }
}
