/**
 * BPE tokenizers (gpt-tokenizer) take time quadratic in the length of one unbroken run of
 * non-space characters: 100 000 characters of one "word" took a minute, so a model that sends
 * 1 MB of arguments without spaces would stall every later token count of its turn (context
 * assembly, usage estimates) for hours. Counting such runs in bounded pieces keeps the cost
 * linear; a cut inside a run adds at most one token per piece. Pure module.
 *
 * The runs are found by one scan, not by a regex: `\S{257}` is retried from every start inside
 * each shorter run, about 0.4 µs a character, which made finding them cost more than counting
 * the tokens of prompts without spaces (Chinese prose, tool schemas as JSON).
 */
const MAX_RUN = 256;

/** JavaScript's `\s`, by code unit. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * `text` cut the way `text.split(/(\S{256})/)` cuts it, without empty pieces: every unbroken
 * run of non-space characters in pieces of 256 from its start, its rest joined to what follows.
 * A text without such a run is one piece.
 */
export function boundedRuns(text: string): string[] {
  const pieces: string[] = [];
  let run = 0; // the current run's length
  let open = 0; // its characters not yet cut into a piece
  let long = false;
  let cut = 0;
  for (let i = 0; i < text.length; i++) {
    if (isSpace(text.charCodeAt(i))) {
      run = open = 0;
      continue;
    }
    if (++run > MAX_RUN) long = true;
    if (++open < MAX_RUN) continue;
    const start = i + 1 - MAX_RUN;
    if (start > cut) pieces.push(text.slice(cut, start));
    pieces.push(text.slice(start, i + 1));
    cut = i + 1;
    open = 0;
  }
  // Runs of exactly 256 alone leave the text whole, as the regex test before the split did.
  if (!long) return text ? [text] : [];
  if (cut < text.length) pieces.push(text.slice(cut));
  return pieces;
}

/** Counts tokens of `text` with `count`, cutting unbroken runs longer than 256 characters. */
export function countInBoundedRuns(text: string, count: (piece: string) => number): number {
  let n = 0;
  for (const piece of boundedRuns(text)) n += count(piece);
  return n;
}

/** Encodes `text` with `encode`, cutting unbroken runs longer than 256 characters (linear time; a cut adds at most one token). */
export function encodeInBoundedRuns(text: string, encode: (piece: string) => number[]): number[] {
  const pieces = boundedRuns(text);
  if (pieces.length === 1) return encode(pieces[0]!);
  const out: number[] = [];
  for (const piece of pieces) for (const t of encode(piece)) out.push(t);
  return out;
}
