/**
 * Author-file protection bound to what the author said about that file (seed 001: "作者在
 * 消息里点名这个文件并说删（或整份重写）时才执行"). A file the author wrote may be deleted or
 * wholly rewritten only when a clause of this turn's message is an instruction (not a
 * question, a report, a supposition, a plan or a wish, and not taken back later in the
 * message) whose delete / rewrite verb governs a complete reference to the file:
 * - the whole title ("Notes 2" never names "Notes"; "林夏雪" never names "林夏"), a unit
 *   number in any numeral ("第十章" = "Chapter 10", never "Chapter 1"), a range or a list;
 * - as the object of the verb, not as the model to follow ("以第3章为准"), a place where
 *   something changes ("the ending of chapter 3", "第三章第二段", "from the outline"), a
 *   subject with its own predicate ("chapter 1 looks good") or something kept;
 * - or the open file by pointing ("delete this", "重写它") or a bare order ("删掉").
 * Anything else is no, and the agent asks the author. Pure module.
 */
import { findUnitRefs, halfWidthDigits, unitOfTitle, type UnitRef } from '../../core/numerals';
import { isMostlyChinese, straightQuotes } from '../../core/text';
import { type Clause, isConditionalSentence, isQuestionSentence, lastRetractionEnd, type Sentence, type Span, splitSentences, trailsOff } from '../../core/utterance';

import { VERB_RE, NEGATION_BEFORE, NEGATED_REF, REFERENCE_BEFORE, REFERENCE_AFTER, AGREE_BEFORE, AGREE_AFTER, LOCATION_BEFORE, MANNER_AFTER, PART_AFTER, DONE, NAME_CONTINUES, POINTING, EN_LEAD, ZH_LEAD, EN_FILLER, ZH_FILLER, JOIN, EITHER, LIST_SEPS, PERFECTIVE } from './author-scope-words';

export { splitClauses } from '../../core/utterance';

export type AuthorAction = 'delete' | 'rewrite';

/** What the author said, as a tool sees it. */
export interface AuthorScope {
  message: string;
  /** The file open in the author's editor when they sent the message. */
  focusFileId?: string | null;
  /**
   * Titles of the project's files: a longer title named at the same place wins ("Notes 2"
   * over "Notes", "林夏雪" over "林夏"), and lists of them read as lists.
   */
  titles?: string[];
}

type VerbKind = AuthorAction | 'keep' | 'other';
interface Verb {
  kind: VerbKind;
  text: string;
  start: number;
  end: number;
}


const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const strip = (text: string, ...patterns: RegExp[]): string => patterns.reduce((t, p) => t.replace(p, ' '), text);
const emptyOfWords = (text: string): boolean => !/[\p{L}\p{N}]/u.test(text);

function verbsIn(clause: string): Verb[] {
  const out: Verb[] = [];
  for (const m of clause.matchAll(VERB_RE)) {
    const g = m.groups!;
    let kind: VerbKind = g.rewrite ? 'rewrite' : g.delete ? 'delete' : g.keep ? 'keep' : 'other';
    if ((kind === 'delete' || kind === 'rewrite') && NEGATION_BEFORE.test(clause.slice(0, m.index))) kind = 'keep';
    out.push({ kind, text: m[0], start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** The file's own title at its places in a clause: whole words only, never a CJK title glued to another character. */
function titleSpans(clause: string, title: string): Span[] {
  const t = title.trim();
  // Most titles are not in a message at all: no pattern to build for them.
  if (!t || !clause.toLowerCase().includes(t.toLowerCase())) return [];
  const re = new RegExp(`(?<![A-Za-z0-9])${escapeRegex(t)}(?![A-Za-z0-9])`, 'giu');
  return [...clause.matchAll(re)]
    .filter((m) => {
      const before = clause.slice(0, m.index);
      // "人物大纲" is not "大纲": a CJK title must not continue a word before it.
      return !/[\u4e00-\u9fff]$/u.test(before) || /(?:[把将和与及跟、了掉除删写改看读审个]|删除|删掉|重写)$/u.test(before);
    })
    .map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/**
 * Where the message names the file: its unit ("第十章" for "Chapter 10", with its subtitle
 * when it follows: "第3章 灯塔") or its whole title, unless a longer title of the project is
 * named at that place ("Notes 2" is not "Notes").
 */
function nameSpans(message: string, title: string, others: Span[], units: UnitRef[] = findUnitRefs(message)): Span[] {
  const unit = unitOfTitle(title);
  if (!unit) return titleSpans(message, title).filter((s) => !others.some((o) => o.start <= s.start && s.end <= o.end && o.end - o.start > s.end - s.start));
  const subtitle = title.slice(findUnitRefs(title)[0]!.end).replace(/^[\s:：.-]+/u, '').trim();
  return units
    .filter((r) => r.kind === unit.kind && r.from <= unit.n && unit.n <= r.to)
    .map((r) => {
      const tail = subtitle && r.from === r.to ? new RegExp(`^\\s*[:：]?\\s*${escapeRegex(subtitle)}`, 'iu').exec(message.slice(r.end)) : null;
      return { start: r.start, end: r.end + (tail?.[0].length ?? 0) };
    });
}

/** Every reference the rules can see in the message: unit numbers and the project's titles. */
function referenceSpans(message: string, titles: string[], units: UnitRef[]): Span[] {
  const spans = [...units.map((r) => ({ start: r.start, end: r.end })), ...titles.flatMap((t) => titleSpans(message, t))];
  return outermost(spans);
}

/** Spans not inside a longer one ("Notes" in "Notes 2" is that one), one per start, in order. */
function outermost(spans: Span[]): Span[] {
  return spans
    .filter((s) => !spans.some((o) => o !== s && o.start <= s.start && s.end <= o.end && o.end - o.start > s.end - s.start))
    .sort((a, b) => a.start - b.start || b.end - a.end)
    .filter((s, i, all) => i === 0 || s.start !== all[i - 1]!.start);
}

/** Text after a reference with the references coordinated with it skipped ("第三章和第四章的结尾" → "的结尾"). */
function skipCoordinated(clause: string, end: number, refs: Span[]): string {
  let pos = end;
  for (;;) {
    const j = JOIN.exec(clause.slice(pos));
    if (!j) break;
    const next = refs.find((r) => r.start === pos + j[0].length);
    if (!next) break;
    pos = next.end;
  }
  return clause.slice(pos);
}

/** Whether the text around a name makes the file something other than the object. */
function notAnObject(before: string, after: string): boolean {
  if (REFERENCE_BEFORE.test(before) || REFERENCE_AFTER.test(after)) return true;
  if (AGREE_BEFORE.test(before) && AGREE_AFTER.test(after)) return true;
  if (LOCATION_BEFORE.test(before)) return true;
  return NEGATED_REF.test(before);
}

/** What follows a reference (coordinated ones skipped): a verb it is the topic of, nothing, or a predicate of its own. */
type After = { verb: Verb } | { nothing: true } | { predicate: true };

function readAfter(clause: string, from: number, verbs: Verb[]): After {
  let pos = from;
  for (let guard = 0; guard < 20; guard++) {
    const rest = clause.slice(pos);
    const lead = /^(?:\s|[.,!…~～*"'“”‘’《》]|\p{Extended_Pictographic}|\uFE0F)+/u.exec(rest);
    if (lead) {
      pos += lead[0].length;
      continue;
    }
    if (!rest) return { nothing: true };
    const verb = verbs.find((v) => v.start === pos);
    if (verb) return { verb };
    if (MANNER_AFTER.test(` ${rest}`)) return { nothing: true };
    // "… and rewrite chapter 4": a new verb after a joiner ends this object.
    const joined = /^(?:and|&|then|和|并|再)\s*/iu.exec(rest);
    if (joined && verbs.some((v) => v.start === pos + joined[0].length)) return { nothing: true };
    const filler = /^(?:(?:entirely|completely|altogether|fully|now|please|pls|plz|too|also|as well|for me|for good|permanently|thanks|thank you|thx|asap|right now|right away|immediately|outright|totally|ok|okay|both|file|files|doc|docs|document|sheet|page|over|again|(?:these|those|the) (?:two|three) files|both files)\b|(?:这|那)?(?:两|几|三)个文件|一遍|从头|这个文件|的文件|文件|整章|这一章|这章|整个|全部|本身|也|都|全|就|直接|先|一起|一并|给我|帮我|统统|全都|通通|索性|干脆|就行了|就行|就好|即可|吧|了|啊|呀|哈|嘛|啦|呗|哦|喔)/iu.exec(rest);
    if (filler) {
      pos += filler[0].length;
      continue;
    }
    return { predicate: true };
  }
  return { predicate: true };
}

interface ClauseView {
  clause: Clause;
  sentence: Sentence;
  verbs: Verb[];
  refs: Span[];
  names: Span[];
}

/** A clause made only of references and filler words: it may share a neighbour's verb. */
function isBareList(v: ClauseView): boolean {
  let rest = v.clause.text;
  for (const r of [...v.refs].reverse()) rest = rest.slice(0, r.start) + ' ' + rest.slice(r.end);
  return v.verbs.length === 0 && emptyOfWords(strip(rest, EN_FILLER, ZH_FILLER));
}

/** A clause whose verb has no object of its own: "delete it", "删了吧", "删掉". */
function objectOfVerbIsPointing(v: ClauseView, verb: Verb): boolean {
  if (v.refs.length > 0) return false;
  let rest = v.clause.text.slice(verb.end);
  const pointing = POINTING.exec(rest);
  if (pointing) rest = rest.slice(0, pointing.index) + ' ' + rest.slice(pointing.index + pointing[0].length);
  return emptyOfWords(strip(rest, EN_FILLER, ZH_FILLER, /\bone\b|一章|章|个|些|俩|两章/gu));
}

/** What may stand before an order without making it something else: courtesy, 把 and what it points at, what to follow, joiners. */
function withoutCourtesy(before: string): string {
  return strip(
    before,
    // What to follow ("按第3章的风格重写") and what 把 points at ("请把它删了") are not a subject.
    /(?:以|按照?|参考|参照|依照|根据|仿照|对照|照着|用)\s+(?:为准|为参考|为标准|为蓝本|为范本|为例|那样|一样|的风格|的写法|的语气|的文风)?/gu,
    /[把将](?:它们?|这个?|那个?|这一?章|这些|此)/gu,
    // A pronoun topic pointing back ("第十章和第十一章，这两章都删了").
    /(?:这|那)(?:两|几|三|些|俩)?(?:章|个|篇|份)|它们|这俩/gu,
    /(?:已有|已经有|现有|原有|原来|旧|现在|之前|以前|当前|目前)的/gu,
    /[和与及跟、,，]|\band\b|的?(?:这个|那个)?(?:文件|这一章|这章)/gu,
    EN_LEAD,
    ZH_LEAD,
    ZH_LEAD,
  );
}

/**
 * Whether a verb, where it stands, is an order to the agent: nothing but courtesy, topics
 * and 把 before it in its clause, and nothing that supposes or reports around it.
 */
function isOrder(v: ClauseView, verb: Verb): boolean {
  if (isQuestionSentence(v.sentence) || isConditionalSentence(v.sentence.text) || trailsOff(v.sentence)) return false;
  let before = v.clause.text.slice(0, verb.start);
  for (const r of [...v.refs].reverse()) if (r.end <= verb.start) before = before.slice(0, r.start) + ' ' + before.slice(r.end);
  // A second verb joined to an order is an order too ("delete chapter 3 and rewrite chapter 4").
  const first = v.verbs[0]!;
  if (first !== verb && /(?:\band\b|&|\bthen\b|\balso\b|和|并|再|然后)\s*$/iu.test(before)) return isOrder(v, first);
  const bare = withoutCourtesy(before);
  if (!emptyOfWords(bare)) return false;
  const after = v.clause.text.slice(verb.end);
  if (/\b(?:later|eventually|someday|some day|at some point|next week|tomorrow|maybe|perhaps|probably|if)\b|以后|回头|改天|再说|也许|可能|或许|的话/iu.test(after)) return false;
  if (PERFECTIVE.test(verb.text) && !/[把将]/u.test(before) && !/[吧呗啊](?:[\s\p{P}\p{S}]|\p{Extended_Pictographic})*$/u.test(v.clause.text)) return false;
  return true;
}

type Governed = { verb: Verb; view: ClauseView };

/**
 * The verbs a name at `span` of clause `i` is the object or topic of, each with its clause
 * (empty when none): the verb right after it ("第三章删掉", "把第三章删了", "chapter 1
 * stays"), the nearest before it with nothing but filler between, or a list neighbour's.
 */
function governingVerbs(views: ClauseView[], i: number, span: Span): Governed[] {
  const v = views[i]!;
  const text = v.clause.text;
  const before = text.slice(0, span.start);
  const afterCoord = skipCoordinated(text, span.end, v.refs);
  if (notAnObject(before, text.slice(span.end))) return [];
  // A choice between files asks for none of them.
  if (EITHER.test(text)) return [];
  // Two names with nothing between make one ("chapter 4 notes"): neither is a whole file.
  if (v.refs.some((r) => r.end <= span.start && !/[\p{L}\p{N}\p{P}]/u.test(text.slice(r.end, span.start)))) return [];
  const manner = MANNER_AFTER.exec(afterCoord);
  if (!manner && (PART_AFTER.test(afterCoord) || PART_AFTER.test(text.slice(span.end)))) return [];
  let after: After = manner ? { nothing: true } : readAfter(text, text.length - afterCoord.length, v.verbs);
  // In English a verb after a name has it as its subject ("Outline Draft", "chapter 3 drags");
  // only "stays" / "remains" keep it. Chinese puts the topic first ("第三章删掉").
  const topicFirst = /[把将]\s*$/u.test(before) || isMostlyChinese(text);
  if ('verb' in after && !topicFirst && /^[A-Za-z -]+$/.test(after.verb.text) && after.verb.kind !== 'keep') after = { predicate: true };
  const out: Governed[] = 'verb' in after ? [{ verb: after.verb, view: v }] : [];
  const prior = v.verbs.filter((x) => x.end <= span.start);
  if (prior.length) {
    const verb = prior[prior.length - 1]!;
    let between = text.slice(verb.end, span.start);
    for (const r of [...v.refs].reverse()) if (r.start >= verb.end && r.end <= span.start) between = between.slice(0, r.start - verb.end) + ' ' + between.slice(r.end - verb.end);
    // A name with a predicate of its own ("delete 10 and 1 looks good") is that predicate's subject.
    if (emptyOfWords(strip(between, EN_FILLER, ZH_FILLER)) && !('predicate' in after)) out.push({ verb, view: v });
    return out;
  }
  if (out.length || 'predicate' in after || !isBareList(v)) return out;
  // A bare list shares the verb of the clause it is listed with ("delete chapter 3, chapter 4").
  for (let j = i; j > 0 && LIST_SEPS.includes(views[j]!.clause.sep) && views[j - 1]!.sentence === v.sentence; j--) {
    const prev = views[j - 1]!;
    if (prev.verbs.length) return [{ verb: prev.verbs[prev.verbs.length - 1]!, view: prev }];
    if (!isBareList(prev)) break;
  }
  // … or of the clause after it that names nothing ("第三章，第四章，都删掉").
  for (let j = i + 1; j < views.length && LIST_SEPS.includes(views[j]!.clause.sep) && views[j]!.sentence === v.sentence; j++) {
    const next = views[j]!;
    if (next.verbs.length) return next.refs.length === 0 ? [{ verb: next.verbs[0]!, view: next }] : [];
    if (!isBareList(next)) break;
  }
  return [];
}

/** What a message says, read once for every file it may be about (clauses, verbs, references). */
interface MessageReading {
  message: string;
  units: UnitRef[];
  refs: Span[];
  views: Omit<ClauseView, 'names'>[];
  retractedBefore: number;
}

const within = (spans: Span[], c: Clause): Span[] =>
  spans.filter((s) => s.start >= c.start && s.end <= c.start + c.text.length).map((s) => ({ start: s.start - c.start, end: s.end - c.start }));

function readMessage(raw: string, titles: string[]): MessageReading {
  const message = straightQuotes(halfWidthDigits(raw));
  const units = findUnitRefs(message);
  const refs = referenceSpans(message, titles, units);
  const all = outermost([...refs, ...titles.flatMap((t) => nameSpans(message, t, refs, units))]);
  const views = splitSentences(message, all).flatMap((sentence) =>
    sentence.clauses.map((clause) => {
      const refsHere = within(all, clause);
      // A verb inside a title ("Outline Draft", "Notes on what to cut") is part of the name.
      const verbs = verbsIn(clause.text).filter((v) => !refsHere.some((r) => v.start < r.end && r.start < v.end));
      return { clause, sentence, verbs, refs: refsHere };
    }),
  );
  return { message, units, refs, views, retractedBefore: lastRetractionEnd(message) };
}

/** Whether the message, as read, asks for this action on this file. Any clause that keeps it wins. */
function asksFor(reading: MessageReading, file: { id: string; title: string }, action: AuthorAction, focusFileId: string | null | undefined): boolean {
  const names = nameSpans(reading.message, file.title, reading.refs, reading.units);
  const views: ClauseView[] = reading.views.map((v) => ({ ...v, names: within(names, v.clause) }));
  const isFocus = !!focusFileId && focusFileId === file.id;
  const messageNamesAny = views.some((v) => v.refs.length > 0);
  const kinds: VerbKind[] = [];
  const judge = (verb: Verb, view: ClauseView): VerbKind => {
    if (verb.kind !== 'delete' && verb.kind !== 'rewrite') return verb.kind;
    if (view.clause.start + verb.start < reading.retractedBefore) return 'other';
    return isOrder(view, verb) ? verb.kind : 'other';
  };

  views.forEach((v, i) => {
    if (DONE.test(v.clause.text)) return;
    for (const span of v.names) for (const g of governingVerbs(views, i, span)) kinds.push(judge(g.verb, g.view));
    if (v.names.length || v.refs.length) return;
    // A verb pointing back: at the files the clause before named ("Chapter 4 - delete it",
    // "第三章写得太烂了，删了吧"), or at the open file when the message names none.
    for (const verb of v.verbs) {
      // "其他别动" has a subject of its own: only a verb with nothing before it points back.
      if (!objectOfVerbIsPointing(v, verb) || !emptyOfWords(withoutCourtesy(v.clause.text.slice(0, verb.start)))) continue;
      // Only a statement just before points the way: not a question ("Chapter 1? delete it"), not an earlier sentence.
      const topic = [...views.slice(0, i)].reverse().find((p) => p.refs.length > 0);
      // (A keep points back as far as it likes: keeping is never the risky reading.)
      const destructive = verb.kind === 'delete' || verb.kind === 'rewrite';
      if (destructive && topic && (isQuestionSentence(topic.sentence) || (topic.sentence !== v.sentence && views.indexOf(topic) < i - 1))) continue;
      // The file the clause before named as a whole thing, not as a place or a part ("the ending of Notes is weak, delete it").
      const whole = (p: ClauseView, s: Span): boolean =>
        !notAnObject(p.clause.text.slice(0, s.start), p.clause.text.slice(s.end)) &&
        !PART_AFTER.test(skipCoordinated(p.clause.text, s.end, p.refs)) &&
        !NAME_CONTINUES.test(p.clause.text.slice(s.end));
      const named = topic ? topic.names.length > 0 && topic.names.every((s) => whole(topic, s)) : isFocus && !messageNamesAny;
      if (named) kinds.push(judge(verb, v));
    }
  });
  return kinds.includes(action) && !kinds.includes('keep');
}

/** The project's titles with the file's own first (a file need not be among them). */
const titlesWith = (titles: string[] | undefined, own: string[]): string[] => [...new Set([...own, ...(titles ?? [])])];

/**
 * Whether the author, in this turn's message, named this file and asked for this action
 * on it. Any clause that keeps it (or negates the action) wins over one that asks.
 */
export function authorAskedFor(scope: AuthorScope, file: { id: string; title: string }, action: AuthorAction): boolean {
  return asksFor(readMessage(scope.message, titlesWith(scope.titles, [file.title])), file, action, scope.focusFileId);
}

/** The files of `files` the message authorises this action on: the message read once for all of them. */
export function authorisedFiles<F extends { id: string; title: string }>(scope: AuthorScope, files: F[], action: AuthorAction): F[] {
  const reading = readMessage(scope.message, titlesWith(scope.titles, files.map((f) => f.title)));
  return files.filter((f) => asksFor(reading, f, action, scope.focusFileId));
}
