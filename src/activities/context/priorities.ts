/**
 * Which project files matter for this request, in order:
 * CRITICAL (focus file, attached files; quotes are rendered apart) › CONSTRAINT (every
 * character card, high-importance settings, outlines, the previous chapter; cards and settings
 * before chapters) › RELEVANT (chapters the message names, sibling chapters of the focus, medium
 * settings; retrieved snippets are added after these by the assembler) › INSPIRATION (the
 * rest: low-importance settings, then chapters newest first). A character or setting named in
 * the query goes to the front of CONSTRAINT, so a tight budget still carries it. A tier is
 * never thinned by relabelling: when the budget cannot hold all of CONSTRAINT, the packer
 * chooses inside it ({@link byPackingOrder}). Pure module.
 */
import { findUnitRefs, unitNumbers, unitOfTitle } from '../../core/words/numerals';
import { type Importance, isBodyFileType } from '../../core/domain';

export enum Priority {
  CRITICAL = 0,
  CONSTRAINT = 1,
  RELEVANT = 2,
  INSPIRATION = 3,
}

export interface ManifestFile {
  id: string;
  title: string;
  type: string;
  parentId: string | null;
  order: number;
  importance: Importance | null;
}

export interface Candidate {
  fileId: string;
  priority: Priority;
  /** Why it was chosen (stats and tests). */
  reason:
    | 'focus'
    | 'attached'
    | 'named'
    | 'character'
    | 'setting'
    | 'outline'
    | 'previous_chapter'
    | 'asked_chapter'
    | 'sibling'
    | 'rest';
}

export interface PriorityInput {
  files: ManifestFile[];
  focusFileId: string | null;
  attachedFileIds: string[];
  /** The author's message plus the router's scope. */
  query: string;
}

/** How many sibling chapters of the focus are RELEVANT; the others fall to INSPIRATION. */
export const SIBLINGS = 4;

const IMPORTANCE_RANK: Record<Importance, number> = { high: 0, medium: 1, low: 2 };
const rank = (i: Importance | null): number => IMPORTANCE_RANK[i ?? 'medium'];

/** Chapter / episode numbers a text mentions (Arabic and Chinese numerals: the shared parser). */
export function chapterNumbers(text: string): number[] {
  return unitNumbers(text);
}

const GENERIC_NAME = /^(角色|人物|人物卡|角色卡|设定|世界观|character|characters|setting|settings|card|profile)$/iu;

/** The names a character or setting card goes by: its title, the title without notes in brackets, and its parts. */
export function entityNames(title: string): string[] {
  const bare = title.replace(/[（(【[][^）)】\]]*[）)】\]]/gu, ' ').trim();
  // "Character: Mara Voss" goes by "Mara Voss" as well as "Mara" and "Voss".
  const labelled = bare.split(/[:：|/、,，]+/u).map((p) => p.trim());
  const parts = bare.split(/[:：·・|/、,，\s—–-]+/u).map((p) => p.trim());
  const names = new Set([title.trim(), bare, ...labelled, ...parts]);
  return [...names].filter((n) => {
    if (!n || GENERIC_NAME.test(n)) return false;
    // Two CJK characters make a name (林夏); Latin names need three letters so "Li" does not match everywhere.
    return /[\u3400-\u9fff]/u.test(n) ? Array.from(n).length >= 2 : n.length >= 3;
  });
}

/** Names of character and setting files that appear in the query (case-insensitive for Latin). */
export function namedInQuery(files: ManifestFile[], query: string): Map<string, string[]> {
  const q = query.toLowerCase();
  const out = new Map<string, string[]>();
  for (const f of files) {
    if (f.type !== 'character' && f.type !== 'setting') continue;
    const hits = entityNames(f.title).filter((n) => q.includes(n.toLowerCase()));
    if (hits.length) out.set(f.id, hits);
  }
  return out;
}

/** What the packer weighs about a CONSTRAINT item. */
export interface PackingKey {
  /** Named in the query: carried first whatever its importance. */
  named: boolean;
  /** Unset (outlines, chapters, unrated cards) weighs as medium. */
  importance: Importance | null;
  /** Length of the text to pack. */
  chars: number;
}

/**
 * Packing order inside CONSTRAINT when the budget cannot hold the whole tier: names from the
 * query first, then by importance, then the shorter first, so the budget carries the most
 * important items and, among equals, as many as fit. Stable for ties (the tier's own order).
 */
export const byPackingOrder = (a: PackingKey, b: PackingKey): number =>
  Number(b.named) - Number(a.named) || rank(a.importance) - rank(b.importance) || a.chars - b.chars;

export const chapterNo = (f: ManifestFile): number | null => unitOfTitle(f.title)?.n ?? null;

/** Orders the project's files into priority tiers. Folders are never items. */
export function prioritize(input: PriorityInput): { candidates: Candidate[]; names: string[] } {
  const files = input.files.filter((f) => f.type !== 'folder');
  const byId = new Map(files.map((f) => [f.id, f]));
  const out: Candidate[] = [];
  const taken = new Set<string>();
  const add = (f: ManifestFile | undefined, priority: Priority, reason: Candidate['reason']): void => {
    if (!f || taken.has(f.id)) return;
    taken.add(f.id);
    out.push({ fileId: f.id, priority, reason });
  };
  const byOrder = (a: ManifestFile, b: ManifestFile): number => a.order - b.order;

  if (input.focusFileId) add(byId.get(input.focusFileId), Priority.CRITICAL, 'focus');
  for (const id of input.attachedFileIds) add(byId.get(id), Priority.CRITICAL, 'attached');

  const named = namedInQuery(files, input.query);
  const cards = files
    .filter((f) => f.type === 'character')
    .sort((a, b) => rank(a.importance) - rank(b.importance) || byOrder(a, b));
  const settings = files.filter((f) => f.type === 'setting').sort(byOrder);
  for (const f of [...cards, ...settings]) if (named.has(f.id)) add(f, Priority.CONSTRAINT, 'named');
  // Every card is a constraint, walk-ons too: a large cast is thinned by packing inside the
  // tier (byPackingOrder puts low-importance cards last), never by moving cards out of it.
  for (const f of cards) add(f, Priority.CONSTRAINT, 'character');
  for (const f of settings) if (f.importance === 'high') add(f, Priority.CONSTRAINT, 'setting');
  for (const f of files.filter((x) => x.type === 'outline').sort(byOrder)) add(f, Priority.CONSTRAINT, 'outline');

  // The anchor chapter: the focus file when it is a chapter, else the chapter the message asks for.
  const chapters = files.filter((f) => isBodyFileType(f.type)).sort(byOrder);
  const focus = input.focusFileId ? byId.get(input.focusFileId) : undefined;
  const anchorFile = focus && isBodyFileType(focus.type) ? focus : undefined;
  const asked = chapterNumbers(input.query);
  // The chapter the message names first, not the lowest it names: "Write chapter 5 … Previous
  // chapter: Chapter 4" (every job chapter's message) works on 5, and 4 is the one before it.
  const anchorNo = (anchorFile && chapterNo(anchorFile)) ?? findUnitRefs(input.query)[0]?.from ?? null;
  const askedFiles = chapters.filter((c) => {
    const n = chapterNo(c);
    return n !== null && asked.includes(n);
  });

  let previous: ManifestFile | undefined;
  if (anchorNo !== null) previous = chapters.find((c) => chapterNo(c) === anchorNo - 1);
  if (!previous && anchorFile)
    previous = chapters.filter((c) => c.parentId === anchorFile.parentId && c.order < anchorFile.order).pop();
  // Nothing to anchor on: the latest chapter keeps continuity for "write the next one".
  if (!previous && anchorNo === null && !anchorFile)
    previous = [...chapters].sort((a, b) => (chapterNo(b) ?? b.order) - (chapterNo(a) ?? a.order))[0];
  add(previous, Priority.CONSTRAINT, 'previous_chapter');

  for (const f of askedFiles) add(f, Priority.RELEVANT, 'asked_chapter');
  const anchor = anchorFile ?? askedFiles[0];
  if (anchor || anchorNo !== null) {
    const position = (c: ManifestFile): number =>
      anchorNo !== null ? (chapterNo(c) ?? c.order) - anchorNo : c.order - anchor!.order;
    const siblings = chapters
      .filter((c) => !taken.has(c.id) && (!anchor || c.parentId === anchor.parentId))
      .sort((a, b) => Math.abs(position(a)) - Math.abs(position(b)) || position(b) - position(a));
    for (const f of siblings.slice(0, SIBLINGS)) add(f, Priority.RELEVANT, 'sibling');
  }
  for (const f of settings) if (rank(f.importance) === IMPORTANCE_RANK.medium) add(f, Priority.RELEVANT, 'setting');

  for (const f of settings) add(f, Priority.INSPIRATION, 'setting');
  const newestFirst = [...chapters].sort(
    (a, b) => (chapterNo(b) ?? b.order) - (chapterNo(a) ?? a.order) || b.order - a.order,
  );
  for (const f of newestFirst) add(f, Priority.INSPIRATION, 'rest');
  for (const f of files) add(f, Priority.INSPIRATION, 'rest');

  out.sort((a, b) => a.priority - b.priority);
  return { candidates: out, names: [...new Set([...named.values()].flat())] };
}
