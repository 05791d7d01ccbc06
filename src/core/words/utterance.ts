/**
 * How an author's message is built: sentences, the clauses inside them, and whether a
 * sentence asks, supposes or instructs. The rules that read an author's words (author scope,
 * routing) share this one reading so that "why did you delete chapter 3?" is a question
 * everywhere. Every test here errs towards "not an instruction": a rule that needs an
 * instruction then does nothing, and the agent asks. Pure module.
 */
import { findUnitRefs, halfWidthDigits } from './numerals';

export interface Clause {
  text: string;
  /** Offset of the clause in the message. */
  start: number;
  /** The separator that came before this clause ('' for the first of a sentence). */
  sep: string;
}

export interface Sentence {
  text: string;
  start: number;
  /** The punctuation that ended it ('' at the end of the message). */
  end: string;
  clauses: Clause[];
}

/** Sentence ends; a dot after an abbreviation ("ch.", "Ch. 10") or inside a number ("1.5") is not one. */
const SENTENCE_END = /([!?！？。；;\n]+|…+|\.{2,}|(?<!\b(?:ch|chs|ep|eps|vol|no|mr|mrs|ms|dr|st))\.(?!\d))/giu;
/**
 * Clause boundaries inside a sentence: commas, brackets, dashes and the conjunctions that
 * start a new predicate, and an emoji with more words after it ("Delete chapter 5 please 🙏 I
 * cannot look at it"). "and" / "和" are not among them: they join a list of files as often as
 * clauses, and the rules read lists themselves. Corner brackets 「」『』 quote a title: they do not
 * end a clause.
 */
const CLAUSE_SEP =
  /([,，、:：()（）[\]【】]|\p{Extended_Pictographic}+\uFE0F?(?=\s*[\p{L}\p{N}])|\s[-–—]+\s|—+|--+|\b(?:but|since|because|so|while|whereas|although|though|however|after that|and then|then|otherwise)\b|但是|但|因为|所以|然后|不过|可是|而且|并且|之后|以后|同时|否则|不然)/iu;

/** Offsets of a reference in the message (a unit number, a file's title). */
export interface Span {
  start: number;
  end: number;
}

/** Splits a message into clauses (every sentence's), remembering the separator before each. */
export function splitClauses(message: string, references: Span[] = []): Clause[] {
  return splitSentences(message, references).flatMap((s) => s.clauses);
}

/**
 * A separator inside a reference ("chapters 4, 5 and 10") or a 、 between two references
 * ("第三章、第四章") joins a list; it does not end a clause.
 */
function joinsList(text: string, at: number, sep: string, refs: Span[]): boolean {
  const end = at + sep.length;
  if (refs.some((r) => r.start < at && end <= r.end)) return true;
  // Only 、 is a list mark for sure: "Delete Chapter 10, Chapter 1 looks good" is two clauses.
  if (sep.trim() !== '、') return false;
  const before = text.slice(0, at).replace(/\s+$/u, '').length;
  const after = end + (/^\s*/u.exec(text.slice(end))?.[0].length ?? 0);
  return refs.some((r) => r.end === before) && refs.some((r) => r.start === after);
}

function clausesOf(text: string, offset: number, references: Span[]): Clause[] {
  const refs = [
    ...findUnitRefs(text).map((r) => ({ start: r.start, end: r.end })),
    ...references.map((r) => ({ start: r.start - offset, end: r.end - offset })),
  ];
  const out: Clause[] = [];
  let sep = '';
  let from = 0;
  for (const m of text.matchAll(new RegExp(CLAUSE_SEP.source, 'giu'))) {
    if (joinsList(text, m.index, m[0], refs)) continue;
    const part = text.slice(from, m.index);
    if (part.trim()) out.push({ text: part, start: offset + from, sep });
    sep = m[0].trim() || m[0];
    from = m.index + m[0].length;
  }
  const last = text.slice(from);
  if (last.trim()) out.push({ text: last, start: offset + from, sep });
  return out;
}

/** Sentences with their clauses; full-width digits read as ASCII (offsets unchanged). */
export function splitSentences(message: string, references: Span[] = []): Sentence[] {
  const text = halfWidthDigits(message);
  const out: Sentence[] = [];
  let start = 0;
  const push = (end: number, mark: string): void => {
    const body = text.slice(start, end);
    if (body.trim()) out.push({ text: body, start, end: mark, clauses: clausesOf(body, start, references) });
  };
  for (const m of text.matchAll(SENTENCE_END)) {
    push(m.index, m[0]);
    start = m.index + m[0].length;
  }
  push(text.length, '');
  return out;
}

/** Question words and auxiliaries that open an English question ("why did you…", "should I…", "can you…"). */
const EN_QUESTION_START =
  /^(?:(?:so|and|but|ok|okay|hey|um|uh|well|also|then|please|pls|quick question|honestly|seriously|wait)[\s,]+)*(?:why|what|how|who|whom|whose|when|where|which|should|shall|can|could|would|will|do|does|did|is|are|was|were|have|has|had|may|might|must|wanna)\b|^(?:isn'?t|aren'?t|don'?t|doesn'?t|didn'?t|won'?t|wouldn'?t|shouldn'?t|couldn'?t|can'?t)\s+(?:you|it|we|i|they|he|she|this|that|there)\b/iu;
const ZH_QUESTION =
  /([\u4e00-\u9fff])[不没]\1|吗|么(?![么])|为什么|为啥|干嘛|干吗|怎么|咋|要不要|能不能|可不可以|可以不|行不行|好不好|是不是|需不需要|该不该|会不会|有没有|是否|难道|何必|哪|谁|什么|多少|几章|呢\s*$/u;
const EN_QUESTION_ANYWHERE = /\b(?:why|whether|wonder(?:ing)?)\b|\bor not\b|\bright\s*$/iu;

/** The sentence asks (of any kind: a question, a request in question form, a rhetorical one). */
export function isQuestionSentence(s: Pick<Sentence, 'text' | 'end'>): boolean {
  if (/[?？]/.test(s.end)) return true;
  const t = s.text.trim();
  return EN_QUESTION_START.test(t) || ZH_QUESTION.test(t) || EN_QUESTION_ANYWHERE.test(t);
}

/** The sentence trails off ("删第三章……你确定吗", "delete chapter 3..."): not said through, so not an order. */
export function trailsOff(s: Pick<Sentence, 'end'>): boolean {
  return TRAILING_OFF.test(s.end);
}

/** An ellipsis in any of its forms: the words before it are not said through. */
export const TRAILING_OFF = /…|\.{2,}|。{2,}|⋯/u;

/** A condition makes what follows a supposition ("if chapter 3 doesn't work, delete it"). */
const CONDITIONAL =
  /\b(?:if|unless|in case|whether|once|when(?:ever)?|as soon as|provided)\b|如果|要是|假如|假设|假使|倘若|万一|的话|只要|等到|一旦/iu;

export function isConditionalSentence(text: string): boolean {
  return CONDITIONAL.test(text);
}

/**
 * A clause that supposes, plans, wonders or reports rather than instructs ("I might delete
 * chapter 3 later", "也许以后会删", "my editor said to delete it", "我想删掉第三章"), or puts it off
 * ("cancel the job tomorrow", "明天再删").
 */
const HEDGE =
  /\b(?:might|may|maybe|perhaps|probably|possibly|could|would|should|later|eventually|someday|some day|at some point|thinking|think|considering|consider|wondering|planning|plan to|going to|gonna|about to|tempted|not sure|unsure|idea|said|says|told|tell me|asked|suggests?|suggested|recommend(?:ed|s)?|wants?|wanted|hope|hoping|wish|tomorrow|tonight|next week)\b|也许|可能|或许|大概|说不定|以后|回头|改天|明天|今晚|下周|考虑|打算|想想|想着|想要|我想|准备|看情况|再说|建议|说过|说要|说让|让我|叫我|觉得|认为|感觉|希望|似乎|好像|估计|迟早|早晚|有空|有时间/iu;

export function isHedgedClause(text: string): boolean {
  return HEDGE.test(text);
}

/**
 * Words that take back what came before in the message ("Delete chapter 3 - no wait, keep
 * it", "删除第三章？算了不用了"). What follows the last of them stands.
 */
const RETRACTION =
  /\b(?:no wait|wait no|no,?\s+actually|actually,?\s+no\b|actually,?\s+(?:just|only)|wait|hold on|hang on|hold off|actually no|actually,? (?:keep|don'?t|leave|never ?mind)|never ?mind|nvm|scratch that|forget (?:it|that|i said that)|cancel that|on second thought|changed my mind|just kidding|jk|ignore that|disregard that)\b|算了|不用了|不对|哦不|还是别|还是不要|还是留着|还是保留|先别|等等|等一下|等下|稍等|再想想|不删了|别删了|不要删了|不改了|撤回|开玩笑|当我没说|收回/iu;

/** Offset just past the last retraction in the message, or -1 when there is none. */
export function lastRetractionEnd(message: string): number {
  let end = -1;
  for (const m of halfWidthDigits(message).matchAll(new RegExp(RETRACTION.source, 'giu'))) end = m.index + m[0].length;
  return end;
}
