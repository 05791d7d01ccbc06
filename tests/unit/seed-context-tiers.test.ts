/**
 * The CONSTRAINT tier: every character card belongs to it, whatever its importance, beside the
 * high-importance settings and the previous chapter. A budget too small for the whole tier is
 * met by packing inside it (names first, then importance, then the shorter first), never by
 * moving cards to a lower tier.
 */
import { type ContextItem, MeasureCache, pack } from '../../src/activities/context/budget';
import {
  byPackingOrder,
  type Candidate,
  type ManifestFile,
  type PackingKey,
  Priority,
  prioritize,
} from '../../src/activities/context/priorities';
import { countTokens } from '../../src/activities/context/tokens';
import { createWorkerCaches } from '../../src/activities/worker-caches';
import type { Importance } from '../../src/core/domain';

let n = 0;
const file = (title: string, type: string, importance: Importance | null = null): ManifestFile => ({
  id: (++n).toString(16).padStart(24, '0'),
  title,
  type,
  parentId: null,
  order: n,
  importance,
});

/** A cast of 24 cards: 4 high, 6 medium, 4 unrated, 10 low-importance walk-ons. */
const cast = (): ManifestFile[] => [
  ...Array.from({ length: 4 }, (_, i) => file(`Captain ${i}`, 'character', 'high')),
  ...Array.from({ length: 6 }, (_, i) => file(`Mate ${i}`, 'character', 'medium')),
  ...Array.from({ length: 4 }, (_, i) => file(`Cook ${i}`, 'character')),
  ...Array.from({ length: 10 }, (_, i) => file(`Passenger ${i}`, 'character', 'low')),
];

const tierOf = (candidates: Candidate[], id: string): Priority | undefined =>
  candidates.find((c) => c.fileId === id)?.priority;

describe('every character card is a constraint', () => {
  const chapters = Array.from({ length: 6 }, (_, i) => file(`Chapter ${i + 1}`, 'draft'));
  const cards = cast();
  const law = file('Harbour law', 'setting', 'high');
  const weather = file('Weather notes', 'setting', 'low');
  const files = [...chapters, ...cards, law, weather];

  test('a cast of mixed importance is all CONSTRAINT, high first and walk-ons last, with the high setting and the previous chapter', () => {
    const { candidates } = prioritize({ files, focusFileId: null, attachedFileIds: [], query: 'keep going' });
    for (const c of cards) expect(tierOf(candidates, c.id)).toBe(Priority.CONSTRAINT);
    const constraint = candidates.filter((c) => c.priority === Priority.CONSTRAINT);
    expect(constraint.filter((c) => c.reason === 'character').map((c) => c.fileId)).toEqual(cards.map((c) => c.id));
    expect(tierOf(candidates, law.id)).toBe(Priority.CONSTRAINT);
    expect(constraint.find((c) => c.reason === 'previous_chapter')?.fileId).toBe(chapters[5]!.id);
    // Only what is not a card falls to INSPIRATION: a low setting and the far chapters.
    const inspiration = candidates.filter((c) => c.priority === Priority.INSPIRATION).map((c) => c.fileId);
    expect(inspiration).toContain(weather.id);
    expect(inspiration.filter((id) => cards.some((c) => c.id === id))).toEqual([]);
  });

  test('a walk-on named in the message leads the tier, ahead of every high card', () => {
    const walkOn = file('Orsolya Brandt', 'character', 'low');
    const { candidates } = prioritize({
      files: [...files, walkOn],
      focusFileId: null,
      attachedFileIds: [],
      query: 'A scene where Orsolya loses the ticket',
    });
    expect(candidates[0]).toEqual({ fileId: walkOn.id, priority: Priority.CONSTRAINT, reason: 'named' });
  });
});

describe('packing inside CONSTRAINT', () => {
  const key = (named: boolean, importance: Importance | null, chars: number): PackingKey => ({
    named,
    importance,
    chars,
  });

  test('names first, then importance (unset weighs as medium), then the shorter first; ties keep the tier order', () => {
    const keys = [
      key(false, 'low', 10),
      key(false, null, 900),
      key(false, 'high', 5000),
      key(true, 'low', 8000),
      key(false, 'medium', 100),
      key(false, 'high', 200),
      key(false, 'medium', 100),
    ];
    const sorted = [...keys].sort(byPackingOrder);
    expect(sorted).toEqual([
      key(true, 'low', 8000),
      key(false, 'high', 200),
      key(false, 'high', 5000),
      key(false, 'medium', 100),
      key(false, 'medium', 100),
      key(false, null, 900),
      key(false, 'low', 10),
    ]);
    expect(sorted[3]).toBe(keys[4]);
    expect(sorted[4]).toBe(keys[6]);
  });

  test('a tight budget keeps as many cards as fit, most important and then shortest first; the rest stay CONSTRAINT and are left out, not moved', () => {
    const cards = cast();
    const body = (f: ManifestFile, i: number): string =>
      `${f.title} keeps watch on the ${i % 5} deck. `.repeat(f.importance === 'low' ? 6 : 20 + ((i * 7) % 11));
    const items: ContextItem[] = cards.map((f, i) => ({
      fileId: f.id,
      title: f.title,
      priority: Priority.CONSTRAINT,
      kind: 'file',
      text: body(f, i),
    }));
    const importance = new Map(cards.map((f) => [f.id, f.importance]));
    const ordered = [...items].sort((a, b) =>
      byPackingOrder(
        { named: false, importance: importance.get(a.fileId)!, chars: a.text.length },
        { named: false, importance: importance.get(b.fileId)!, chars: b.text.length },
      ),
    );
    // Room for about half the cast.
    const all = items.reduce((sum, i) => sum + countTokens(i.text) + 20, 0);
    const packed = pack(ordered, Math.floor(all / 2), 0, new MeasureCache(createWorkerCaches().measuredTexts));
    const whole = packed.placed.filter((p) => p.mode === 'full').map((p) => p.item.fileId);
    expect(whole.length).toBeGreaterThan(4);
    expect(whole.length).toBeLessThan(cards.length);
    // Every high card is in whole; no walk-on is, while a more important card is missing.
    for (const f of cards.filter((c) => c.importance === 'high')) expect(whole).toContain(f.id);
    expect(whole.filter((id) => importance.get(id) === 'low')).toEqual([]);
    // Inside one importance, the shorter come first.
    const mates = ordered.filter((i) => importance.get(i.fileId) === 'medium').map((i) => i.text.length);
    expect(mates).toEqual([...mates].sort((a, b) => a - b));
    // Nothing was relabelled: what is shown is shown as CONSTRAINT, the rest is left out.
    expect(packed.placed.every((p) => p.item.priority === Priority.CONSTRAINT)).toBe(true);
    expect(packed.placed.length + packed.dropped.length).toBe(cards.length);
  });
});
