/**
 * Route matching of the flow's flat route table: static segments outrank `:params`, which outrank `*`, so
 * /pivote or /terminos are never read as an api key (/:apikey). Static segments match case-insensitively and
 * trailing slashes are ignored, as the flow's earlier router did.
 */
export interface RoutePattern {
  id: string;
  /** '' (index), 'terminos', 'ayuda/:ruta', ':apikey' or '*'. */
  path: string;
}

export interface RouteMatch<R extends RoutePattern> {
  route: R;
  params: Record<string, string>;
}

const staticScore = 10;
const paramScore = 3;
const indexScore = 2;
const splatPenalty = -2;

function segmentsOf(pathname: string): string[] {
  return pathname.split('/').filter((segment) => segment !== '');
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function score(path: string): number {
  if (path === '') return indexScore;
  return segmentsOf(path).reduce((sum, segment) => sum + (segment === '*' ? splatPenalty : segment.startsWith(':') ? paramScore : staticScore), 0);
}

function matchOne<R extends RoutePattern>(route: R, segments: readonly string[]): RouteMatch<R> | null {
  const pattern = segmentsOf(route.path);
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i]!;
    if (part === '*') {
      params['*'] = segments.slice(i).map(decode).join('/');
      return { route, params };
    }
    const segment = segments[i];
    if (segment === undefined) return null;
    if (part.startsWith(':')) params[part.slice(1)] = decode(segment);
    else if (part.toLowerCase() !== decode(segment).toLowerCase()) return null;
  }
  return pattern.length === segments.length ? { route, params } : null;
}

/** The best-ranked route for pathname (ties go to the earlier route), or null. */
export function matchRoute<R extends RoutePattern>(routes: readonly R[], pathname: string): RouteMatch<R> | null {
  const segments = segmentsOf(pathname);
  let best: RouteMatch<R> | null = null;
  let bestScore = -Infinity;
  for (const route of routes) {
    const found = matchOne(route, segments);
    if (!found) continue;
    const value = score(route.path);
    if (value > bestScore) {
      best = found;
      bestScore = value;
    }
  }
  return best;
}
