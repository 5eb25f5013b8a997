/**
 * The route a request for an unrouted path most likely meant (`GET /v1/alerts/rules` → `GET /v1/alert-rules`),
 * named in its 404 (docs/api.md, Errors): a path typed by hand is one typo or one guessed separator away from the
 * right one more often than not. Only routes served for the request's method count; a route's parameters take the
 * request's own segments where the paths have as many, so `/v1/procurement/contract/42` is answered with
 * `/v1/procurement/contracts/42`, not with a template to fill in. Typos are counted as the name lookups count them
 * (lib/name-match.ts): an insertion, a deletion, a substitution or two swapped neighbours each.
 */
import { typos } from '../../lib/name-match.js';

/** Typos allowed between a path and a route: a few, and never a quarter of the path or more. */
function typosAllowed(path: string): number {
  return Math.min(3, Math.floor((path.length - 1) / 4));
}

/**
 * The route `url` (find-my-way's form: `:name` one segment) written with the request's segments in its
 * parameters' places, or undefined when it cannot be (a catch-all, a parameter with a pattern).
 */
function filledIn(url: string, segments: readonly string[]): string | undefined {
  if (url.includes('*') || url.includes('(')) return undefined;
  const parts = url.split('/');
  return parts
    .map((part, i) =>
      part.startsWith(':') ? (parts.length === segments.length ? segments[i] : `{${part.slice(1)}}`) : part,
    )
    .join('/');
}

/** The nearest route to `path` among `urls` (each a route's URL), filled in, or undefined when none is near. */
export function closestRoute(path: string, urls: Iterable<string>): string | undefined {
  const segments = path.split('/');
  const limit = typosAllowed(path);
  const asked = path.toLowerCase();
  let best: { route: string; edits: number } | undefined;
  for (const url of urls) {
    const route = filledIn(url, segments);
    if (route === undefined || route === path) continue;
    const edits = typos(asked, route.toLowerCase(), limit);
    if (edits <= limit && (best === undefined || edits < best.edits)) best = { route, edits };
  }
  return best?.route;
}
