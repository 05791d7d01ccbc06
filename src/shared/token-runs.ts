/**
 * BPE tokenizers (gpt-tokenizer) take time quadratic in the length of one unbroken run of
 * non-space characters: 100 000 characters of one "word" took a minute, so a model that sends
 * 1 MB of arguments without spaces would stall every later token count of its turn (context
 * assembly, usage estimates) for hours. Counting such runs in bounded pieces keeps the cost
 * linear; a cut inside a run adds at most one token per piece. Pure module.
 */
const MAX_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1}}`);
const RUN_PIECE = new RegExp(`(\\S{${MAX_RUN}})`);

/** Counts tokens of `text` with `count`, cutting unbroken runs longer than 256 characters. */
export function countInBoundedRuns(text: string, count: (piece: string) => number): number {
  if (!LONG_RUN.test(text)) return count(text);
  let n = 0;
  for (const piece of text.split(RUN_PIECE)) if (piece) n += count(piece);
  return n;
}

/** Encodes `text` with `encode`, cutting unbroken runs longer than 256 characters (linear time; a cut adds at most one token). */
export function encodeInBoundedRuns(text: string, encode: (piece: string) => number[]): number[] {
  if (!LONG_RUN.test(text)) return encode(text);
  const out: number[] = [];
  for (const piece of text.split(RUN_PIECE)) if (piece) for (const t of encode(piece)) out.push(t);
  return out;
}
