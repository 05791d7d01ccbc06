/**
 * core/model/: what the model is told and how its answer is read, the same on every attempt:
 * the tool definitions (tool-schemas.ts), stable strings in prompts (markers.ts), the `<file>`
 * protocol that splits an answer into chat text and file body (file-stream.ts), and going on
 * from a partial answer (continuation.ts).
 */
/**
 * File streaming protocol: after `create_file` without content,
 * the model writes the body between a `<file>` line and a `</file>` line in its reply.
 * This processor splits the model's text deltas into chat text and file body as they
 * arrive, without waiting for whole lines except when a line might be a marker.
 * A lone `<file>` / `</file>` line outside a capture never reaches the chat text. Pure.
 */
import { unitNumbers } from '../words/numerals';

export type StreamPiece =
  { kind: 'chat'; text: string } | { kind: 'file'; text: string } | { kind: 'open' } | { kind: 'close' };

const OPEN = '<file>';
const CLOSE = '</file>';

function couldBecome(lineSoFar: string, marker: string): boolean {
  const t = lineSoFar.trimStart();
  return t.length < marker.length ? marker.startsWith(t) : t.startsWith(marker);
}

export class FileStreamProcessor {
  private capturing = false;
  /** Current line not yet emitted because it may turn out to be a marker line. */
  private held = '';
  /** The current line already started emitting, so it cannot be a marker line. */
  private lineCommitted = false;
  /** Whole text of the current line, held or not: fences are detected on whole lines. */
  private currentLine = '';
  private inFence = false;
  private closedOnce = false;
  private chatAfterClose = '';
  private captured = '';

  /** @param canCapture true when a file created without content is waiting for its body. */
  constructor(private canCapture: boolean) {}

  get isCapturing(): boolean {
    return this.capturing;
  }

  /** Body captured so far (across the step). */
  get body(): string {
    return this.captured;
  }

  /** A `<file>` block was opened and closed in this step. */
  get closed(): boolean {
    return this.closedOnce && !this.capturing;
  }

  /** The text ends right after a finished `</file>` block (only whitespace follows). */
  get endsOnFileBlock(): boolean {
    return this.closed && this.chatAfterClose.trim() === '';
  }

  push(delta: string): StreamPiece[] {
    const out: StreamPiece[] = [];
    for (const part of delta.split(/(\n)/)) {
      if (part === '') continue;
      if (part === '\n') this.endLine(out);
      else this.addToLine(part, out);
    }
    return merge(out);
  }

  /** End of the model's text: flush whatever is held. */
  end(): StreamPiece[] {
    const out: StreamPiece[] = [];
    if (this.held) this.finishLine(this.held, false, out);
    this.held = '';
    this.currentLine = '';
    this.lineCommitted = false;
    return merge(out);
  }

  private addToLine(text: string, out: StreamPiece[]): void {
    this.currentLine += text;
    if (this.lineCommitted) {
      this.emit(text, out);
      return;
    }
    const line = this.held + text;
    const marker = this.capturing ? CLOSE : OPEN;
    const watch = this.capturing || !this.inFence;
    if (watch && (couldBecome(line, marker) || (!this.capturing && couldBecome(line, CLOSE)))) {
      this.held = line;
      return;
    }
    this.held = '';
    this.lineCommitted = true;
    this.emit(line, out);
  }

  private endLine(out: StreamPiece[]): void {
    if (!this.lineCommitted) this.finishLine(this.held, true, out);
    else this.emit('\n', out);
    if (!this.capturing && this.currentLine.trimStart().startsWith('```')) this.inFence = !this.inFence;
    this.held = '';
    this.currentLine = '';
    this.lineCommitted = false;
  }

  /** A whole line that was held back: decide whether it is a marker. */
  private finishLine(line: string, newline: boolean, out: StreamPiece[]): void {
    const t = line.trim();
    const nl = newline ? '\n' : '';
    if (this.capturing) {
      if (t.endsWith(CLOSE)) {
        const before = line.slice(0, line.lastIndexOf(CLOSE));
        if (before) this.emit(before, out);
        this.capturing = false;
        this.closedOnce = true;
        this.chatAfterClose = '';
        out.push({ kind: 'close' });
        return;
      }
      this.emit(line + nl, out);
      return;
    }
    if (t.startsWith(OPEN) && !this.inFence) {
      if (this.canCapture) {
        this.capturing = true;
        this.canCapture = false;
        out.push({ kind: 'open' });
        const rest = t.slice(OPEN.length);
        if (rest.endsWith(CLOSE)) {
          // `<file>body</file>` on one line.
          this.emit(rest.slice(0, -CLOSE.length), out);
          this.capturing = false;
          this.closedOnce = true;
          this.chatAfterClose = '';
          out.push({ kind: 'close' });
        } else if (rest) this.emit(rest + nl, out);
      }
      // Without a pending file the marker line is dropped; the text after it stays chat.
      return;
    }
    if (t === CLOSE && !this.inFence) return; // lone closing marker outside a capture: dropped
    this.emit(line + nl, out);
  }

  private emit(text: string, out: StreamPiece[]): void {
    if (!text) return;
    if (this.capturing) {
      this.captured += text;
      out.push({ kind: 'file', text });
    } else {
      if (this.closedOnce) this.chatAfterClose += text;
      out.push({ kind: 'chat', text });
    }
  }
}

function merge(pieces: StreamPiece[]): StreamPiece[] {
  const out: StreamPiece[] = [];
  for (const p of pieces) {
    const last = out[out.length - 1];
    if (
      last &&
      last.kind === p.kind &&
      (p.kind === 'chat' || p.kind === 'file') &&
      (last.kind === 'chat' || last.kind === 'file')
    ) {
      (last as { text: string }).text += (p as { text: string }).text;
    } else out.push({ ...p });
  }
  return out;
}

/** What may trail a question: spaces, emoji, tildes, closing quotes and brackets, emphasis marks. */
const TRAILING = /(?:[\s"'”’」』)）\]】*_~～…。.!！]|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\u200d|\ufe0f)+$/u;
/** A sign-off after the last sentence: "Thanks!", "Cheers", "— Writer", "Best wishes,\nThe Writer", "辛苦了". */
const SIGN_OFF =
  /(?:\n\s*(?:[-–—]+\s*\S[^\n]{0,40}|(?:best(?: wishes| regards)?|regards|cheers|thanks|thank you|yours)[,.!]?\s*(?:\n[^\n]{1,40})?)|(?<=[?？])\s*(?:thanks|thank you|thx|cheers|谢谢|辛苦了|感谢)[!！.。~～]*)\s*$/iu;
/** Emoji, spaces and emphasis after the last words. */
const TRAILING_SOFT = /(?:[\s~～*_]|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\u200d|\ufe0f)+$/u;
/** A bracketed aside at the end ("（比如节奏、对白）", "(e.g. the pacing)", "[optional]"). */
const TRAILING_ASIDE = /\s*(?:（[^（）]*）|\([^()]*\)|【[^【】]*】|\[[^[\]]*\])\s*$/u;
/** Quoted words: a character's line, a title, a passage of the story — not the agent asking the author. */
const QUOTATION = /"[^"\n]*"|“[^”\n]*”|「[^」\n]*」|『[^』\n]*』/gu;

/**
 * The agent's own closing words: quotations stood in for by one neutral word (a question inside
 * one is the story's, not the agent's), and bracketed asides, emoji and closing marks after the
 * last sentence taken off ("还需要我调整吗？（比如节奏、对白）", "Want chapter 3 next? 😊").
 */
export function closingWords(text: string): string {
  let t = text.trim().replace(QUOTATION, ' QUOTED ');
  for (;;) {
    // Emoji and spaces first, so an aside before them is still whole; closing marks only when no
    // aside is left. An aside that itself asks ("(Shall I go on?)") is the agent asking, and a
    // reply that is all aside is the reply.
    let next = t.replace(SIGN_OFF, '').replace(TRAILING_SOFT, '');
    const aside = TRAILING_ASIDE.exec(next);
    if (aside && !/[?？]\s*[)）\]】]\s*$/u.test(aside[0]) && /[\p{L}\p{N}]/u.test(next.slice(0, aside.index)))
      next = next.slice(0, aside.index);
    if (next === t) next = t.replace(TRAILING, '');
    if (next === t) return t;
    t = next;
  }
}

/**
 * Ends with a question to the author: a question mark (ASCII or full-width), or a Chinese
 * question particle, in the agent's own closing words ({@link closingWords}).
 */
export function endsWithQuestion(text: string): boolean {
  const t = closingWords(text);
  if (/[?？]$/.test(t)) return true;
  // A trailing ！/。 after 吗 still asks ("要继续吗～"), but "写好了～" or "Done! 😊" does not.
  const last = t.split(/[。！？.!?\n]/u).pop() ?? '';
  return /[吗么]$/u.test(t) || (/呢$/u.test(t) && /觉得|怎么|什么|哪|谁|如何|为什么|要不要|是不是|还是/u.test(last));
}

/** Marks a masked quotation (a private-use character no reply contains). */
const MASK = '\uE000';

/** The last question sentence of a text, without the asides after it (passed verbatim to the reviewer). */
export function lastQuestion(text: string): string | null {
  if (!endsWithQuestion(text)) return null;
  // Quotations are masked so a "?" inside one does not end a sentence, then put back.
  const quotes: string[] = [];
  const masked = trimAsides(text.trim())
    .replace(QUOTATION, (m) => `${MASK}${quotes.push(m) - 1}${MASK}`)
    .replace(/[\s)）\]】]+$/u, '');
  const parts = masked.split(/(?<=[.!?。！？\n])\s*/u).filter(Boolean);
  const last = parts[parts.length - 1]?.trim();
  return last ? last.replace(new RegExp(`${MASK}(\\d+)${MASK}`, 'gu'), (_, i: string) => quotes[Number(i)]!) : null;
}

/** The text without the asides, emoji and marks after its last question mark. */
function trimAsides(text: string): string {
  let t = text;
  for (;;) {
    const next = t.replace(TRAILING_SOFT, '').replace(TRAILING_ASIDE, '');
    if (next === t) return t;
    t = next;
  }
}

/**
 * Distinct chapter / episode / act units a text mentions ("chapter 3", "第三章", "第2-5集" →
 * 2, 3, 4, 5), read with the shared numeral parser.
 */
export function planUnits(text: string): number[] {
  return unitNumbers(text);
}
