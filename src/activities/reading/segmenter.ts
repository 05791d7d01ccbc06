/**
 * Chinese word segmentation for the rules that read an author (core/reading.ts): jieba's
 * dictionary and HMM through `jieba-wasm` (WebAssembly, no native binary to build or ship).
 * `@node-rs/jieba` cuts the 580 Chinese messages of the intent corpora identically and faster
 * (0.005 against 0.15 ms a message), but its native package must match the platform; at a few
 * tenths of a millisecond per turn the portable one wins. The dictionary loads on the first cut
 * (about 1.5 s): the worker warms it at start ({@link warmSegmenter}).
 */
import { cut } from 'jieba-wasm';
import { readMessage, wordEnds, type MessageReading, type Segmenter } from '../../core/reading';

/** jieba's cut of a Han run, with the HMM for words not in its dictionary. */
export const jiebaSegmenter: Segmenter = (run) => cut(run, true);

/** Loads the dictionary now, so no turn pays for it. */
export function warmSegmenter(): void {
  cut('预热词典', true);
}

/** A message read with jieba: what the turn's preparation records for the workflow's rules. */
export function readAuthorMessage(message: string): MessageReading {
  return readMessage(message, jiebaSegmenter);
}

/** Where jieba ends each Han word of the message: the turn's preparation records this for the workflow. */
export function authorWordEnds(message: string): number[] {
  return wordEnds(message, jiebaSegmenter);
}
