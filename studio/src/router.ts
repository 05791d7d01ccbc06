/** Studio's routes, as paths under /studio (the API serves index.html for any of them). */
import { useEffect, useState } from 'react';

export const BASE = '/studio';

export type Route =
  | { page: 'projects' }
  | { page: 'project'; projectId: string; tab: 'chat' | 'file' | 'jobs' | 'trash'; sub?: string };

export function parseRoute(pathname: string): Route {
  const parts = pathname.replace(/^\/studio\/?/, '').split('/').filter(Boolean);
  if (parts[0] === 'projects' && parts[1]) {
    const tab = parts[2] === 'files' ? 'file' : parts[2] === 'jobs' ? 'jobs' : parts[2] === 'trash' ? 'trash' : 'chat';
    return { page: 'project', projectId: parts[1], tab, sub: parts[3] };
  }
  return { page: 'projects' };
}

export function href(route: Route): string {
  if (route.page === 'projects') return `${BASE}/`;
  const seg = route.tab === 'file' ? 'files' : route.tab;
  return `${BASE}/projects/${route.projectId}/${seg}${route.sub ? `/${route.sub}` : ''}`;
}

export function navigate(to: string, replace = false): void {
  if (to === location.pathname) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const on = () => setPath(location.pathname);
    window.addEventListener('popstate', on);
    return () => window.removeEventListener('popstate', on);
  }, []);
  return parseRoute(path);
}
