/**
 * The second check on an order the grammar (core/words/orders.ts) read: what around it in the message
 * makes it something other than an instruction to act now. It can only take an order away,
 * never give one: a question, a condition or a time ("after you finish ch 11", "等我改完再"), a
 * trailing off, a hedge beside it ("…, I think"), a take-back, a joke or sarcasm after it
 * ("🙄", "kidding", "said no one", "哈哈骗你的"), or a question after it that names nothing else
 * ("…你确定吗", "ok?"). Pure module.
 */
import type { MessageReading, ReadSentence } from './reading';
import { VOIDS } from './order-words';
import { isConditionalSentence, isHedgedClause, isQuestionSentence, lastRetractionEnd, trailsOff } from './utterance';

/**
 * Time words that make an order wait for something ("after you finish ch 11", "等我改完再删",
 * "until Friday"): not now, so not an order. Anywhere in the order's sentence.
 */
const WAITS = /\b(?:after|once)\b|等(?:我|你|到|写完|改完|看完|第)|再说|先别/iu;
/**
 * "before" and "until" put off an order said after them ("before Friday, delete…"); after the order
 * they say what it comes before or how long it lasts ("pause the job — I need to rethink the arc
 * before another chapter gets written"): the order is still now.
 */
const UNTIL = /\b(?:before|until|till)\b/iu;
/** Weaker time words ("以后", "之后") make an order wait only in its own clause or before it; after it they are usually a reason ("以后我用自己的本子"). */
// "等任务写完，再删…" waits too: a clause that opens with 等 ("wait until…") before the order.
const LATER = /以后|之后|之前|\blater\b|\bafterwards\b|^\s*等/iu;
/** A sentence that opens with a bare no ("……不，还是先留着", "No — keep it"): it takes back what came before. */
const NO_OPENING = /^[\s.…。、]*(?:不+|不不|不对|不行|no+|nope|nah)$/iu;
/** A hedge on its own beside an order ("…, I think", "…，应该吧"): a short clause of it. */
const SHORT_HEDGE_WORDS = 5;

/** Where in the message the last void or take-back ends (-1: none). */
function lastVoidEnd(raw: string, ignore?: RegExp): number {
  // A command that reads like a take-back ("cancel that job") is not one: blanked, offsets kept.
  const text = ignore ? raw.replace(ignore, (m) => ' '.repeat(m.length)) : raw;
  let end = lastRetractionEnd(text);
  for (const m of text.matchAll(new RegExp(VOIDS.source, 'giu'))) end = Math.max(end, m.index + m[0].length);
  return end;
}

/** Spans of the message inside double quotes (an unclosed quote runs to the end): words said by someone, or a line of the story. */
function quotedSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  for (let open = text.indexOf('"'); open >= 0;) {
    const close = text.indexOf('"', open + 1);
    spans.push([open, close < 0 ? text.length : close]);
    open = close < 0 ? -1 : text.indexOf('"', close + 1);
  }
  return spans;
}

/**
 * A clause wholly inside quotation marks is a line of dialogue or words quoted ("加一句台词：“删了吧”"),
 * not the author's order; a quoted title inside an order ('delete "Notes"') leaves the order as it is.
 */
function quoted(reading: MessageReading, clause: ReadSentence['clauses'][number]): boolean {
  const words = clause.words.filter((w) => w.kind !== 'punct' && w.kind !== 'emoji');
  if (!words.length) return false;
  const first = words[0]!.start;
  const last = words[words.length - 1]!.end;
  return quotedSpans(reading.text).some(([open, close]) => open < first && last <= close);
}

/** A sentence that asks, supposes, waits or trails off carries no order. */
export function sentenceCarriesOrders(s: ReadSentence, titles: readonly string[] = []): boolean {
  const text = maskTitles(s.text, titles);
  return !isQuestionSentence({ ...s, text }) && !isConditionalSentence(text) && !WAITS.test(text) && !trailsOff(s);
}

/**
 * The text with the project's titles blanked (offsets kept): a title's own words ("作者的话", "What
 * If") name a file; they never make its sentence a question, a condition or a wait. A title is
 * blanked with a word, not spaces, so that what follows it does not open the sentence ("Notes is
 * obsolete" must not read as a question opening on "is").
 */
export function maskTitles(text: string, titles: readonly string[]): string {
  let out = text;
  for (const t of [...titles].sort((a, b) => b.length - a.length)) {
    if (!t.trim()) continue;
    const lower = out.toLowerCase();
    const want = t.toLowerCase();
    for (let at = lower.indexOf(want); at >= 0; at = lower.indexOf(want, at + want.length))
      out = out.slice(0, at) + 'x'.repeat(want.length) + out.slice(at + want.length);
  }
  return out;
}

/**
 * Whether the order read in clause `ci` of sentence `si` stands: its sentence carries orders,
 * it does not wait for later, no short hedge stands beside it, and nothing after it in the
 * message voids or takes it back or asks about it (a question naming other files asks about
 * those, not about this order).
 */
export function orderStands(
  reading: MessageReading,
  si: number,
  ci: number,
  namesOther: (s: ReadSentence) => boolean,
  notATakeBack?: RegExp,
  titles: readonly string[] = [],
): boolean {
  const sentence = reading.sentences[si]!;
  if (!sentenceCarriesOrders(sentence, titles)) return false;
  if (sentence.clauses.slice(0, ci + 1).some((c) => LATER.test(c.text) || UNTIL.test(c.text))) return false;
  const wordsOf = (text: string): number =>
    text.split(/[\s\p{P}]+/u).filter(Boolean).length + (text.match(/\p{Script=Han}/gu)?.length ?? 0) / 2;
  if (sentence.clauses.some((c, i) => i !== ci && isHedgedClause(c.text) && wordsOf(c.text) <= SHORT_HEDGE_WORDS))
    return false;
  const clause = sentence.clauses[ci]!;
  if (quoted(reading, clause)) return false;
  // Voids are read in titles too: a take-back that happens to be a title's words still asks.
  if (lastVoidEnd(reading.text, notATakeBack) > clause.start) return false;
  const later = reading.sentences.slice(si + 1);
  if (later.some((s) => NO_OPENING.test(s.clauses[0]?.text ?? ''))) return false;
  return !later.some((s) => isQuestionSentence(s) && !namesOther(s));
}
