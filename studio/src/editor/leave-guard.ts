/**
 * Leaving a file never drops the author's text. Closing or reloading the tab with text the
 * server does not have yet asks first (`beforeunload`), and the page going away writes the
 * draft and sends what it can (a keepalive request outlives the page). Moving inside Studio
 * (a link or a button) asks only when the text cannot be saved now (offline, refused, in conflict); otherwise
 * leaving saves it (AutosaveSession.dispose). The draft stays on the device either way.
 */
import { type RefObject, useEffect } from 'react';
import type { AutosaveSession } from './autosave';
import { setLeaveCheck } from '../router';

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
    // Every move inside Studio goes through navigate(), links and buttons alike.
    setLeaveCheck(() => {
      const s = session.current;
      if (!s?.stuck()) return true;
      s.keep();
      return window.confirm(question);
    });
    window.addEventListener('beforeunload', beforeUnload);
    window.addEventListener('pagehide', pageHide);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('pagehide', pageHide);
      document.removeEventListener('visibilitychange', hidden);
      setLeaveCheck(null);
    };
  }, [session, question]);
}
