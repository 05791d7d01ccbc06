/**
 * Chinese word segmentation for the rules that read an author (core/words/reading.ts): jieba's
 * dictionary and HMM through `jieba-wasm` (WebAssembly, no native binary to build or ship).
 * `@node-rs/jieba` cuts the 580 Chinese messages of the intent corpora identically and faster
 * (0.005 against 0.15 ms a message), but its native package must match the platform; at a few
 * tenths of a millisecond per turn the portable one wins. The module loads on the first message
 * with Chinese in it and its dictionary on the first cut (about 1.5 s together): the worker warms
 * both at start ({@link warmSegmenter}); a message without Han characters never needs them.
 */
import { createRequire } from 'node:module';
import {
  characterSegmenter,
  readMessage,
  wordEnds,
  type MessageReading,
  type Segmenter,
} from '../../core/words/reading';

type Jieba = { cut(text: string, hmm: boolean): string[] };
let jieba: Jieba | null = null;
const load = (): Jieba => (jieba ??= createRequire(__filename)('jieba-wasm') as Jieba);

/** jieba's cut of a Han run, with the HMM for words not in its dictionary. */
export const jiebaSegmenter: Segmenter = (run) => load().cut(run, true);

/** Loads the module and its dictionary now, so no turn pays for them. */
export function warmSegmenter(): void {
  load().cut('预热词典', true);
}

const HAN = /\p{Script=Han}/u;
/** jieba only where there is Chinese to cut. */
const segmenterFor = (message: string): Segmenter => (HAN.test(message) ? jiebaSegmenter : characterSegmenter);

/** A message read with jieba: what the turn's preparation records for the workflow's rules. */
export function readAuthorMessage(message: string): MessageReading {
  return readMessage(message, segmenterFor(message));
}

/** Where jieba ends each Han word of the message: the turn's preparation records this for the workflow. */
export function authorWordEnds(message: string): number[] {
  return wordEnds(message, segmenterFor(message));
}
