/**
 * Leaving a file never drops the author's text. Closing or reloading the tab with text the
 * server does not have yet asks first (`beforeunload`), and the page going away writes the
 * draft and sends what it can (a keepalive request outlives the page). A link inside Studio
 * asks only when the text cannot be saved now (offline, refused, in conflict); otherwise
 * leaving saves it (AutosaveSession.dispose). The draft stays on the device either way.
 */
import { type RefObject, useEffect } from 'react';
import type { AutosaveSession } from './autosave';

export function useLeaveGuard(session: RefObject<AutosaveSession | null>, question: string): void {
  useEffect(() => {
    const beforeUnload = (e: BeforeUnloadEvent) => {
      const s = session.current;
      if (!s) return;
      s.keep();
      if (!s.unsaved()) return;
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = '';
    };
    const pageHide = () => session.current?.leave(true);
    const hidden = () => {
      const s = session.current;
      if (document.visibilityState !== 'hidden' || !s) return;
      // A phone may never come back to this tab: keep the text and save it now.
      s.keep();
      if (s.unsaved() && !s.stuck()) void s.save(false);
    };
    const click = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link || link.target === '_blank') return;
      const to = new URL(link.href, location.href);
      if (to.origin !== location.origin || to.pathname === location.pathname) return;
      const s = session.current;
      if (!s?.stuck()) return;
      s.keep();
      if (!window.confirm(question)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    window.addEventListener('pagehide', pageHide);
    document.addEventListener('visibilitychange', hidden);
    // Capture: before the link's own handler navigates.
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('pagehide', pageHide);
      document.removeEventListener('visibilitychange', hidden);
      document.removeEventListener('click', click, true);
    };
  }, [session, question]);
}
