/**
 * Author-file protection bound to what the author said about that file: a file the author wrote
 * may be deleted or wholly rewritten only when a clause of this turn's message is an order for
 * exactly that (the grammar of orders, core/words/orders.ts: every word accounted for) naming the file
 * completely — its whole title ("Notes 2" never names "Notes"), its unit in any numeral
 * ("第十章" = "Chapter 10"), a list, a range minus its exceptions ("chapters 4 to 9 except 6"),
 * or the open file by pointing ("delete this", "重写它", a bare "删了吧") — and nothing else in the
 * message takes the order back, jokes about it, asks about it, puts it off or keeps the file
 * (core/words/order-checks.ts). Anything else is no, and the agent asks the author (an approval card).
 * Pure module.
 */
import { unitOfTitle } from './numerals';
import {
  exceptionClauseOf,
  fileOrdersOf,
  openingTargets,
  type FileAction,
  type FileOrder,
  type Target,
} from './orders';
import { withSpacedClauses, type MessageReading, type ReadSentence } from './reading';
import { orderStands } from './order-checks';
import { isQuestionSentence } from './utterance';
import * as W from './order-words';
import { simplified } from './traditional';

export type AuthorAction = FileAction;

/** What the author said, as a tool sees it. */
export interface AuthorScope {
  reading: MessageReading;
  /** The file open in the author's editor when they sent the message. */
  focusFileId?: string | null;
  /** Titles of the project's files: a longer title named at the same place wins ("Notes 2" over "Notes"). */
  titles?: string[];
}

interface FileRef {
  id: string;
  title: string;
}

/** Whether a target names this file. */
function names(target: Target, file: FileRef, unitKind: string | null): boolean {
  if (target.kind === 'title') return target.title === simplified(file.title);
  if (target.kind === 'pointer' || target.kind === 'rest') return false;
  const unit = unitOfTitle(file.title);
  if (!unit) return false;
  if (target.kind === 'unit') {
    if (target.unit.kind !== unit.kind) return false;
    return target.unit.list
      ? target.unit.list.includes(unit.n)
      : target.unit.from <= unit.n && unit.n <= target.unit.to;
  }
  if (target.kind === 'number') return unit.kind === unitKind && unit.n === target.n;
  return false;
}

/**
 * Another file of the project carries this file's number ("第6章 黑风谷" and "第6章 草稿副本"): then
 * the number alone does not say which of them is meant, and only a title names either.
 */
function sharesNumber(file: FileRef, titles: readonly string[]): boolean {
  const unit = unitOfTitle(file.title);
  if (!unit) return false;
  const own = simplified(file.title);
  return titles.some((t) => {
    const u = t !== own ? unitOfTitle(t) : null;
    return u?.kind === unit.kind && u.n === unit.n;
  });
}

/** A sentence that names files: then a question in it is about them, not about an earlier order. */
function sentenceNames(s: ReadSentence, titles: readonly string[]): boolean {
  return s.clauses.some(
    (c) =>
      c.words.some((w) => w.kind === 'unit') ||
      titles.some((t) => t.trim() && c.text.toLowerCase().includes(t.toLowerCase())),
  );
}

/** Keep-words: a clause with one of them that is not a complete exception makes its sentence's orders partial. */
const KEEPING = new RegExp(
  `\\b(?:${[...W.KEEP_EN, 'except', 'but not', 'other than', 'excluding', 'apart from', 'save for'].join('|')})\\b|${[...W.KEEP_ZH, ...W.EXCEPT_ZH, '除外', '以外', '之外'].join('|')}`,
  'iu',
);
const keeps = (text: string): boolean => KEEPING.test(text) && !W.NEGATED_KEEP.test(text);

/**
 * The topic a pointing order points back at: the clause just before it in the same sentence
 * when it opens with whole files as its subject ("第三章写得太烂了，删了吧", "Chapter 4 - delete it"),
 * with the bare lists before that ("Notes，大纲，都删掉").
 */
function topicOf(
  reading: MessageReading,
  sentence: ReadSentence,
  ci: number,
  titles: readonly string[],
): Target[] | null {
  // The clause just before: in this sentence, or the last of the sentence before when that one is a statement.
  const si = reading.sentences.indexOf(sentence);
  const before = reading.sentences[si - 1];
  // "第二至第五章，除第三章外，一律删除": an exception between the topic and the order is the sentence's exception, not the topic.
  while (
    ci > 1 &&
    exceptionClauseOf(sentence.clauses[ci - 1]!, titles) &&
    !keptTopic(sentence.clauses[ci - 1]!, titles)
  )
    ci--;
  const prev =
    sentence.clauses[ci - 1] ??
    (ci === 0 && before && !isQuestionSentence(before) ? before.clauses[before.clauses.length - 1] : undefined);
  // "don't delete episode 5, rewrite it": a keep from one verb names the topic of an order for the other.
  const first = prev ? (openingTargets(prev, titles) ?? keptTopic(prev, titles)) : null;
  if (!first) return null;
  const out = [...first];
  // Only a bare list extends back ("Notes，大纲，都删掉"); a topic with a predicate of its own stands alone.
  if (ci > 0 && bareList(prev!, titles))
    for (let j = ci - 1; j > 0 && LIST_SEPS.includes(sentence.clauses[j]!.sep); j--) {
      const list = bareList(sentence.clauses[j - 1]!, titles);
      if (!list) break;
      out.unshift(...list);
    }
  return out;
}

/** The files of a clause that keeps them from one verb only ("don't delete episode 5"), or null. */
function keptTopic(clause: ReadSentence['clauses'][number], titles: readonly string[]): Target[] | null {
  if (!keeps(clause.text) || keptFrom(clause.text) === null) return null;
  const targets = exceptionClauseOf(clause, titles);
  return targets && !targets.some((t) => t.kind === 'pointer' || t.kind === 'rest') ? targets : null;
}

/** Separators after which a clause of bare references continues the list before it. */
const LIST_SEPS = [',', '，', '、'];

/** A clause that is only references ("chapter 4", "ch 10 and ch 11"), or null. */
function bareList(clause: ReadSentence['clauses'][number], titles: readonly string[]): Target[] | null {
  const targets = openingTargets(clause, titles);
  if (!targets) return null;
  const listed = new Set(targets.map((t) => JSON.stringify(t)));
  // The whole clause must be those references: every word a unit, a title word, a joiner or a mark.
  const rest = clause.words.filter(
    (w) =>
      w.kind === 'word' &&
      !titles.some((t) => t.toLowerCase().includes(w.text.toLowerCase())) &&
      !W.JOIN.includes(w.text.toLowerCase()) &&
      !W.DET_EN.includes(w.text.toLowerCase()),
  );
  return rest.length === 0 && listed.size > 0 ? targets : null;
}

interface Standing {
  order: FileOrder;
  sentence: ReadSentence;
  ci: number;
  /** Where the order's clause starts in the message. */
  at: number;
}

/** Ordinals and choosers that pick among files without naming one ("the second", "the latter", "第二个"). */
const PICKS =
  /(?<!\b(?:to|from)\s+)\bthe\s+(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|former|latter)(?=\s*$|\s*[,.;!?]|\s+(?:one|ones|chapters?|files?)\b)|第[一二三四五六七八九十两\d]+[个篇份]|前者|后者|其余|剩下|另一/iu;

const within = (n: number, t: Target): boolean =>
  t.kind === 'unit'
    ? t.unit.list
      ? t.unit.list.includes(n)
      : n >= t.unit.from && n <= t.unit.to
    : t.kind === 'number' && t.n === n;

/**
 * Whether a clause picks among the targets an order named: an ordinal or a chooser, a unit or
 * number inside them, or a title they name.
 */
function picksAmong(clause: ReadSentence['clauses'][number], named: readonly Target[]): boolean {
  if (PICKS.test(clause.text)) return true;
  const inside = (n: number) => named.some((t) => within(n, t));
  for (const w of clause.words) {
    if (
      w.kind === 'unit' &&
      w.unit &&
      Array.from({ length: Math.min(w.unit.to - w.unit.from + 1, 200) }, (_, k) => w.unit!.from + k).some(inside)
    )
      return true;
    if (w.kind === 'number' && inside(Number(w.text))) return true;
  }
  const text = clause.text.toLowerCase();
  return named.some((t) => t.kind === 'title' && text.includes(t.title.toLowerCase()));
}

/** An order that names one file and nothing else: there is nothing among its targets to pick. */
const namesOneFile = (o: FileOrder): boolean =>
  o.targets.length === 1 &&
  (o.targets[0]!.kind === 'title' ||
    (o.targets[0]!.kind === 'unit' && o.targets[0]!.unit.from === o.targets[0]!.unit.to && !o.targets[0]!.unit.list));

/** Words that open a clause of purpose or reason: what the order is for, never which files it takes. */
const PURPOSE =
  /^\s*(?:so that|so|in order to|because|since|as|让|使|使得|好让|以便|因为|由于)(?=\s|\p{Script=Han}|$)/iu;
const givesPurpose = (c: ReadSentence['clauses'][number]): boolean =>
  PURPOSE.test(c.text) || /^(?:so|because|since|因为|所以)$/iu.test(c.sep);

/**
 * A part of a file named with its place or its count ("the last three paragraphs", "just the
 * ending", "最后三段", "后半段"): beside a whole-file order it says the order may be about that
 * part only ("delete chapter 5, the last three paragraphs"), so none of the sentence's orders
 * stands. A part said with a demonstrative and a verdict ("那段写得太水") is a reason, not a place.
 */
const PART_EN =
  /\b(?:(?:first|last|final|opening|closing|middle|next|\d+|one|two|three|four|five|six|seven|eight|nine|ten|few|couple of)\s+)+(?:paragraphs?|lines?|sentences?|pages?|scenes?|sections?|parts?|bits?)\b|\b(?:only|just)\s+(?:the\s+)?(?:\w+\s+)?(?:ending|opening|beginning|end|start|middle|intro|climax|half|paragraphs?|lines?|sentences?|pages?|scenes?|sections?|parts?|bits?)\b|\b(?:first|second|last|back|front)\s+half\b|\b(?:paragraphs?|lines?|pages?)\s+\d+/iu;
const PART_ZH =
  /(?:最后|最前|开头|结尾|末尾|前|后|头|末|中间)(?:[一二两三四五六七八九十几\d]+)(?:段|句|行|页|节|场|幕|章节)|(?:前|后|上|下)半(?:段|部分|章)?|(?:最后|开头|结尾|末尾)(?:那|这)?(?:一)?(?:段|句|行|页|场|幕|部分)|第[一二三四五六七八九十\d]+(?:段|句|行|页)/u;
/** Words that say the whole after all ("not just the ending", "from the first line to the last", "从头到尾"). */
const WHOLE_AFTER_ALL =
  /\bnot\s+(?:just|only)\b|\bfrom\s+the\s+(?:first|opening)\b.*\bto\s+the\s+(?:last|final|end)\b|从头到尾|从第一[句行段]到最后/iu;
const namesAPart = (c: ReadSentence['clauses'][number]): boolean =>
  (PART_EN.test(c.text) || PART_ZH.test(c.text)) && !WHOLE_AFTER_ALL.test(c.text);

/** Every order of the message that stands, with where it was read. */
function standingOrders(reading: MessageReading, titles: readonly string[]): Standing[] {
  const out: Standing[] = [];
  reading.sentences.forEach((sentence, si) => {
    const first = sentence.clauses.map((c) => fileOrdersOf(c, titles));
    // Beside another order, a topic with its verb and 了 is one more order ("序章删了，大纲重写").
    const series = first.some((o) => o.length > 0);
    const orders = first.map((o, i) => (o.length || !series ? o : fileOrdersOf(sentence.clauses[i]!, titles, true)));
    const excepts = sentence.clauses.map((c, i) => (orders[i]!.length ? null : exceptionClauseOf(c, titles)));
    // A clause that keeps something and is not a complete exception makes the sentence's orders
    // partial ("rewrite chapter 8 but keep the opening scene"): none of them stands.
    if (sentence.clauses.some((c, i) => !orders[i]!.length && !excepts[i] && keeps(c.text))) return;
    // An exception that keeps its files from one verb only ("don't delete episode 5") leaves orders of the other verb whole.
    const exceptFor = (action: AuthorAction): Target[] =>
      excepts.flatMap((e, i) => {
        const only = keptFrom(sentence.clauses[i]!.text);
        return only === null || only === action ? (e ?? []) : [];
      });
    // Clauses of nothing but references after an order's clause extend its list ("delete chapter 3, chapter 4", "delete Notes, 大纲, Notes File").
    let listing: number | null = null;
    orders.forEach((clauseOrders, ci) => {
      const clause = sentence.clauses[ci]!;
      if (clauseOrders.length) {
        listing = ci;
        return;
      }
      const list = listing !== null && LIST_SEPS.includes(clause.sep) ? bareList(clause, titles) : null;
      if (!list || listing === null) {
        listing = null;
        return;
      }
      const owner = orders[listing]!;
      owner[owner.length - 1] = {
        ...owner[owner.length - 1]!,
        targets: [...owner[owner.length - 1]!.targets, ...list],
      };
      excepts[ci] = [];
    });
    // A clause after an order that picks among what the order names must be read — another
    // order, more of its list, an exception, a keep — or none of the sentence's orders stands: it
    // may change what the order names in words the grammar does not know ("…, bar the second",
    // "…, save chapter 2"). A reason, a feeling or a word on another file leaves the order as it is.
    const named = orders.flat().flatMap((o) => o.targets);
    const single = orders.flat().every((o) => namesOneFile(o));
    const accounted = sentence.clauses.map(
      (c, i) =>
        orders[i]!.length > 0 ||
        excepts[i] !== null ||
        keeps(c.text) ||
        !picksAmong(c, named) ||
        (single && !PICKS.test(c.text) && givesPurpose(c)),
    );
    const lastOrder = orders.reduce((last, o, i) => (o.length ? i : last), -1);
    if (lastOrder >= 0 && accounted.slice(lastOrder + 1).some((ok) => !ok)) return;
    const firstOrder = orders.findIndex((o) => o.length > 0);
    if (firstOrder >= 0 && sentence.clauses.some((c, i) => i > firstOrder && !orders[i]!.length && namesAPart(c)))
      return;
    orders.forEach((clauseOrders, ci) => {
      if (!clauseOrders.length || !orderStands(reading, si, ci, (s) => sentenceNames(s, titles), undefined, titles))
        return;
      for (const order of clauseOrders)
        out.push({
          order: { ...order, except: [...order.except, ...exceptFor(order.action)] },
          sentence,
          ci,
          at: sentence.clauses[ci]!.start,
        });
    });
  });
  return out;
}

/** A file kept, where the keep is said, and the one action it is kept from when the keep names one ("don't delete it"). */
interface Kept {
  target: Target;
  at: number;
  only: AuthorAction | null;
}

/** The one action a keep clause keeps its files from ("don't delete …", "不用重写"), or null when it keeps them from any. */
function keptFrom(text: string): AuthorAction | null {
  const hits = W.KEEP_FROM.filter((k) => k.re.test(text));
  return hits.length === 1 ? hits[0]!.action : null;
}

/**
 * Files a clause anywhere keeps ("keep chapter 6", "第六章别动", "leave it"), each with where it
 * is said. "It" is the topic just named ("Chapter 4 is fine, don't touch it"); with none it stays
 * a pointer, which keeps whatever an order before it named.
 */
function keptFiles(reading: MessageReading, titles: readonly string[]): Kept[] {
  return reading.sentences.flatMap((s) =>
    s.clauses.flatMap((c, ci) => {
      if (!keeps(c.text) || fileOrdersOf(c, titles).length) return [];
      const only = keptFrom(c.text);
      return (exceptionClauseOf(c, titles) ?? []).flatMap((target) =>
        (target.kind === 'pointer' ? (topicOf(reading, s, ci, titles) ?? [target]) : [target]).map((t) => ({
          target: t,
          at: c.start,
          only,
        })),
      );
    }),
  );
}

/**
 * Exceptions with their ordinals ("bar the second", "except the last one") turned into the units they
 * count to in the order's one range or list; null when an ordinal has no such range to count in, or
 * counts past its end.
 */
function ordinalsResolved(except: readonly Target[], targets: readonly Target[]): Target[] | null {
  const units = targets.filter((t): t is Extract<Target, { kind: 'unit' }> => t.kind === 'unit');
  const out: Target[] = [];
  for (const t of except) {
    if (t.kind !== 'ordinal') {
      out.push(t);
      continue;
    }
    if (units.length !== 1 || targets.length !== 1) return null;
    const u = units[0]!.unit;
    const all = u.list ?? Array.from({ length: u.to - u.from + 1 }, (_, k) => u.from + k);
    const n = t.n === -1 ? all[all.length - 1] : all[t.n - 1];
    if (n === undefined) return null;
    out.push({ kind: 'unit', unit: { kind: u.kind, from: n, to: n } });
  }
  return out;
}

/** The files of `files` the message authorises this action on (the message read once for all of them). */
export function authorisedFiles<F extends FileRef>(scope: AuthorScope, files: F[], action: AuthorAction): F[] {
  // The message is read in simplified characters; so are the titles it is matched against ("後記" is named by "后记" and "後記").
  const titles = [...new Set([...files.map((f) => f.title), ...(scope.titles ?? [])].map(simplified))];
  const reading = withSpacedClauses(scope.reading, titles);
  const orders = standingOrders(reading, titles);
  const kept = keptFiles(reading, titles).filter((k) => k.only === null || k.only === action);
  const namesAny = reading.sentences.some((s) => sentenceNames(s, titles));
  const out = new Set<F>();
  for (const { order: read, sentence, ci, at } of orders) {
    if (read.action !== action) continue;
    const except = ordinalsResolved(read.except, read.targets);
    // An ordinal kept anywhere ("Keep the second.") is read against this order's units too.
    const keptOrdinals = ordinalsResolved(
      kept.filter((k) => k.target.kind === 'ordinal').map((k) => k.target),
      read.targets,
    );
    // "bar the second" of an order with no one range or list to count in: what it leaves out is unknown.
    if (!except || !keptOrdinals) continue;
    const order = { ...read, except: [...except, ...keptOrdinals] };
    // "… leave it" / "先留着吧" after an order keeps whatever the order named.
    if (kept.some((k) => k.target.kind === 'pointer' && k.at > at)) continue;
    let targets = order.targets;
    if (order.implicit || targets.some((t) => t.kind === 'pointer')) {
      // Pointing: at the topic just named, or at the open file when the message names none.
      const topic = topicOf(reading, sentence, ci, titles);
      if (topic) targets = [...targets.filter((t) => t.kind !== 'pointer'), ...topic];
      else if (!namesAny && scope.focusFileId) {
        const focus = files.find((f) => f.id === scope.focusFileId);
        if (focus) out.add(focus);
        continue;
      } else continue;
    }
    const unit = targets.find((t): t is Extract<Target, { kind: 'unit' }> => t.kind === 'unit');
    const kind = unit?.unit.kind ?? null;
    for (const f of files) {
      if (!targets.some((t) => names(t, f, kind) && (t.kind === 'title' || !sharesNumber(f, titles)))) continue;
      if (order.except.some((t) => names(t, f, kind)) || kept.some((k) => names(k.target, f, kind))) continue;
      out.add(f);
    }
  }
  return files.filter((f) => out.has(f));
}

/** Whether the author, in this turn's message, named this file and asked for this action on it. */
export function authorAskedFor(scope: AuthorScope, file: FileRef, action: AuthorAction): boolean {
  return authorisedFiles(scope, [file], action).length > 0;
}
