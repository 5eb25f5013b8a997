/**
 * A console or explorer address that nothing serves, asked for by a browser (a mistyped or outdated link): the page
 * of that part saying so, with the nearest page when one is a few typos away, instead of the API's JSON problem
 * document, which a person would read as a broken site (docs/console.md, Pages). A program, and every other path,
 * gets the problem document (docs/api.md, Errors).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleRefusal, renderRefusal as consolePage } from './console/refusal.js';
import { renderRefusal as explorerPage } from './explore/pages.js';
import { CONSOLE_PATH, EXPLORER_PATH } from './people-paths.js';

/** The part of the site for people `path` is in, when a browser asks for a page there; undefined otherwise. */
export function pagePart(request: FastifyRequest, path: string): 'console' | 'explorer' | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  if (!/\btext\/html\b/.test(String(request.headers.accept ?? ''))) return undefined;
  const under = (root: string) => path === root || path.startsWith(`${root}/`);
  if (under(CONSOLE_PATH)) return 'console';
  if (under(EXPLORER_PATH)) return 'explorer';
  return undefined;
}

/** The 404 page of `part` for `path`; `near` is the nearest path served for the same method, if any. */
export function sendPageNotFound(
  reply: FastifyReply,
  part: 'console' | 'explorer',
  path: string,
  near: string | undefined,
): FastifyReply {
  const detail = `There is no page at ${path}.${near === undefined ? '' : ` Did you mean ${near}?`}`;
  reply
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; style-src 'self'; frame-ancestors 'none'")
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
  if (part === 'console') return consolePage(reply, new ConsoleRefusal(404, detail));
  return reply
    .code(404)
    .type('text/html; charset=utf-8')
    .send(explorerPage(404, 'Not found', detail));
}
