/**
 * Hash routes (#/renders/rnd_...): the server serves one page at /dashboard, and the part after #
 * never reaches the server or its logs. Only hashes starting with "#/" are routes, so in-page
 * anchors such as the skip link's #main still work.
 */
export interface Route {
  /** e.g. 'renders/:id' */
  pattern: string;
  page: (params: Record<string, string>) => Promise<(() => void) | undefined> | (() => void) | undefined;
}

export function currentPath(): string | undefined {
  const hash = location.hash;
  return hash.startsWith('#/') ? hash.slice(2) : hash === '' ? '' : undefined;
}

export function match(routes: Route[], path: string): { route: Route; params: Record<string, string> } | undefined {
  const parts = path.split('/').filter(Boolean);
  for (const route of routes) {
    const pattern = route.pattern.split('/').filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = pattern.every((p, i) => {
      const part = decodeURIComponent(parts[i] ?? '');
      if (p.startsWith(':')) params[p.slice(1)] = part;
      return p.startsWith(':') || p === part;
    });
    if (ok) return { route, params };
  }
  return undefined;
}

export function go(path: string): void {
  location.hash = `#/${path}`;
}
