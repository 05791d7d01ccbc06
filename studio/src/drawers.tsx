/**
 * The phone layout's drawers. On a narrow screen the project's file tree and the chat's task
 * board leave the page and slide in over it on demand (styles/shell.css: the rules apply only
 * below the phone breakpoint; on a wide screen both stay in place and the toggles are hidden).
 * The open drawer is the project element's `data-drawer`; a drawer closes when the route
 * changes (a file picked in the tree opens in full view), on Escape, and on a tap beside it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useI18n } from './i18n';

export type DrawerName = 'files' | 'tasks';

/** Where each drawer's panel is: the tree's aside and the task board beside the chat. */
const PANEL: Record<DrawerName, string> = { files: '.project > .side', tasks: '.chat-layout > .board' };

export interface Drawers {
  open: DrawerName | null;
  toggle: (name: DrawerName) => void;
  close: () => void;
}

/** The open drawer of a project page; `routeKey` changes when the author goes elsewhere. */
export function useDrawers(routeKey: string): Drawers {
  const [open, setOpen] = useState<DrawerName | null>(null);
  const current = useRef<DrawerName | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    current.current = open;
  }, [open]);

  const close = useCallback(() => {
    setOpen(null);
    // Back to the button that opened it, so the keyboard stays where the author was.
    opener.current?.focus();
    opener.current = null;
  }, []);
  const toggle = useCallback(
    (name: DrawerName) => {
      if (current.current === name) return close();
      opener.current ??= document.activeElement as HTMLElement | null;
      setOpen(name);
    },
    [close],
  );

  useEffect(() => {
    setOpen(null);
    opener.current = null;
  }, [routeKey]);
  useEffect(() => {
    if (!open) return;
    // Focus moves into the drawer; the panel takes it itself when nothing in it can.
    const panel = document.querySelector<HTMLElement>(PANEL[open]);
    if (panel) {
      const first = panel.querySelector<HTMLElement>('a[href], button:not([disabled]), input, select, textarea');
      if (!first && !panel.hasAttribute('tabindex')) panel.tabIndex = -1;
      (first ?? panel).focus({ preventScroll: true });
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, close]);

  return { open, toggle, close };
}

/** The buttons that open the drawers (phone only), and the shade that closes them. */
export function DrawerToggles({ drawers, tasks }: { drawers: Drawers; tasks: boolean }) {
  const { t } = useI18n();
  const button = (name: DrawerName, label: string, icon: string) => (
    <button
      type="button"
      className="secondary small drawer-toggle"
      aria-expanded={drawers.open === name}
      data-drawer-toggle={name}
      onClick={() => drawers.toggle(name)}
    >
      <span aria-hidden="true">{icon}</span> {label}
    </button>
  );
  return (
    <>
      <div className="drawer-toggles" role="group" aria-label={t.panels}>
        {button('files', t.fileTree, '☰')}
        {tasks && button('tasks', t.taskBoard, '☑')}
      </div>
      {drawers.open && (
        <button type="button" className="drawer-shade" aria-label={t.closePanel} onClick={drawers.close} />
      )}
    </>
  );
}
