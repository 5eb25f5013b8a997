/**
 * The methods each route's path is served for, gathered as routes are registered: a request for a path that is
 * routed, but not for its method (`TRACE /healthz`, `DELETE /docs`, `GET /oauth/token`), is answered 405 with the
 * `Allow` of the methods that are, not with the 404 of a path that does not exist (RFC 9110 §15.5.6; docs/api.md).
 * The endpoints with a refusal route of their own (REST, the agent cards, JSON-RPC) never reach this table.
 */
import type { FastifyInstance } from 'fastify';
import { closestRoute } from './closest-route.js';

interface Routed {
  pattern: RegExp;
  methods: Set<string>;
}

export class RoutedMethods {
  readonly #routes = new Map<string, Routed>();

  /** Records every route registered on `app` (and in its child scopes) from now on. */
  watch(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const routed = this.#routes.get(route.url) ?? { pattern: pathPattern(route.url), methods: new Set() };
      for (const method of methods) routed.methods.add(method);
      this.#routes.set(route.url, routed);
    });
  }

  /** The methods a path is served for (HEAD wherever GET is), in a fixed order; empty for a path not routed. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const { pattern, methods: served } of this.#routes.values()) {
      if (pattern.test(path)) for (const method of served) methods.add(method);
    }
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }

  /** The routed path nearest to an unrouted one, among those served for `method` (closest-route.ts). */
  closest(method: string, path: string): string | undefined {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const urls = [...this.#routes].filter(([, routed]) => routed.methods.has(wanted)).map(([url]) => url);
    return closestRoute(path, urls);
  }
}

/**
 * A route's URL as find-my-way reads it: `:name` one segment (or the regular expression in brackets after it),
 * `*` the rest of the path.
 */
function pathPattern(url: string): RegExp {
  let source = '';
  for (let i = 0; i < url.length; i++) {
    const ch = url[i];
    if (ch === '*') source += '.*';
    else if (ch === ':' && url[i + 1] === ':') {
      source += ':';
      i++;
    } else if (ch === ':') {
      let end = i + 1;
      while (end < url.length && /[\w$]/.test(url[end])) end++;
      if (url[end] === '(') {
        const close = url.indexOf(')', end);
        source += `(?:${url.slice(end + 1, close).replace(/^\^|\$$/g, '')})`;
        end = close + 1;
      } else source += '[^/]+';
      i = end - 1;
    } else source += ch.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
