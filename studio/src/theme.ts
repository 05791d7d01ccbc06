/**
 * Light and dark. Studio follows the system until the author picks one; the choice is kept in
 * localStorage and shown as `data-theme` on <html>, which styles.css reads (its colours are
 * `light-dark()` pairs, chosen by `color-scheme`). index.html applies a kept choice before the
 * first paint, so a dark desk never flashes white.
 */
import { useCallback, useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
/** Also read by the inline script in index.html: keep the two in step. */
const THEME_KEY = 'scriptorium.theme';

function stored(): ThemeChoice {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Shows a choice on the page: `system` leaves the colours to the browser's preference. */
function apply(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

/** The author's theme choice, and a setter that shows and remembers it. */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(stored);
  const set = useCallback((next: ThemeChoice) => {
    try {
      if (next === 'system') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, next);
    } catch {
      // Storage refused (private mode): the choice still holds for this visit.
    }
    apply(next);
    setChoice(next);
  }, []);
  return [choice, set];
}
