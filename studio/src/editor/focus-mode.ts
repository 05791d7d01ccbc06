/**
 * Focus mode: the file's section covers the screen as a centred column, and everything else
 * on the page is made inert (not clickable, not reachable by Tab, hidden from screen readers)
 * until the author leaves it (Esc, the Leave button, Ctrl/Cmd+Shift+F).
 */
import { type RefObject, useEffect } from 'react';

export function useFocusMode(section: RefObject<HTMLElement | null>, on: boolean): void {
  useEffect(() => {
    const el = section.current;
    if (!on || !el) return;
    const made: Element[] = [];
    for (let node: Element = el; node.parentElement && node !== document.body; node = node.parentElement) {
      for (const sibling of Array.from(node.parentElement.children)) {
        if (sibling === node || sibling.hasAttribute('inert') || sibling.tagName === 'SCRIPT') continue;
        sibling.setAttribute('inert', '');
        made.push(sibling);
      }
    }
    document.documentElement.classList.add('focus-writing');
    return () => {
      made.forEach((s) => s.removeAttribute('inert'));
      document.documentElement.classList.remove('focus-writing');
    };
  }, [section, on]);
}
