/** Studio's routes, as paths under /studio (the API serves index.html for any of them). */
import { useEffect, useState } from 'react';

export const BASE = '/studio';

export type ProjectTab = 'chat' | 'board' | 'search' | 'file' | 'jobs' | 'trash';

export type Route =
  | { page: 'projects' }
  | {
      page: 'project';
      projectId: string;
      tab: ProjectTab;
      sub?: string;
      /** A file opened at a place in its text (a search hit): offsets, end exclusive. */
      at?: { from: number; to: number };
      /** The search tab's query. */
      q?: string;
    };

const TABS: Record<string, ProjectTab> = {
  files: 'file',
  board: 'board',
  search: 'search',
  jobs: 'jobs',
  trash: 'trash',
};

export function parseRoute(pathname: string, search = ''): Route {
  const parts = pathname
    .replace(/^\/studio\/?/, '')
    .split('/')
    .filter(Boolean);
  if (parts[0] === 'projects' && parts[1]) {
    const tab = TABS[parts[2] ?? ''] ?? 'chat';
    const query = new URLSearchParams(search);
    const at = /^(\d+)-(\d+)$/.exec(query.get('at') ?? '');
    return {
      page: 'project',
      projectId: parts[1],
      tab,
      sub: parts[3],
      ...(tab === 'file' && at && Number(at[2]) >= Number(at[1])
        ? { at: { from: Number(at[1]), to: Number(at[2]) } }
        : {}),
      ...(tab === 'search' && query.get('q') ? { q: query.get('q')! } : {}),
    };
  }
  return { page: 'projects' };
}

export function href(route: Route): string {
  if (route.page === 'projects') return `${BASE}/`;
  const seg = route.tab === 'file' ? 'files' : route.tab;
  const query = new URLSearchParams();
  if (route.tab === 'file' && route.at) query.set('at', `${route.at.from}-${route.at.to}`);
  if (route.tab === 'search' && route.q) query.set('q', route.q);
  const qs = query.toString();
  return `${BASE}/projects/${route.projectId}/${seg}${route.sub ? `/${route.sub}` : ''}${qs ? `?${qs}` : ''}`;
}

/**
 * Asked before Studio moves to another page, whether a link or a button moves it: false keeps
 * the author where they are. The editor sets it while it holds text it cannot save now.
 */
let leaveCheck: (() => boolean) | null = null;

export function setLeaveCheck(check: (() => boolean) | null): void {
  leaveCheck = check;
}

export function navigate(to: string, replace = false): void {
  if (to === location.pathname + location.search) return;
  if (leaveCheck && !leaveCheck()) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route {
  const [path, setPath] = useState(location.pathname + location.search);
  useEffect(() => {
    const on = () => setPath(location.pathname + location.search);
    window.addEventListener('popstate', on);
    return () => window.removeEventListener('popstate', on);
  }, []);
  const q = path.indexOf('?');
  return q < 0 ? parseRoute(path) : parseRoute(path.slice(0, q), path.slice(q));
}
