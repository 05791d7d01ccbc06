/**
 * The author's changes since `base`, applied onto the newer text `theirs` (a three-way merge by
 * patch). A patch's context must match `theirs` nearly (a few lines may differ); a tight context
 * is tried when a wide one does not fit, as when both sides changed neighbouring lines of a short
 * text. Null when the changes cannot be placed: the caller then keeps both texts whole.
 */
import { applyPatch, createPatch } from 'diff';

export function mergeEdits(base: string, mine: string, theirs: string): string | null {
  for (const context of [4, 1, 0]) {
    const merged = applyPatch(theirs, createPatch('file', base, mine, '', '', { context }), {
      fuzzFactor: context ? 2 : 0,
    });
    if (merged !== false) return merged;
  }
  return null;
}
