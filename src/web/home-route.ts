/**
 * `GET /`: where a person or a program that typed the service's bare address goes next — the reference page, the
 * OpenAPI document, the A2A agent card, the MCP endpoint, and for people the account console and the explorer. A
 * small HTML page for a browser; JSON for a client that asks for `application/json` (docs/api.md, The service's
 * address). No credential, no limit.
 */
import type { FastifyInstance } from 'fastify';
import { AGENT_CARD_PATH } from '../channels/a2a/card.js';
import { SERVICE_API_VERSION } from '../lib/service.js';
import { htmlDocument } from './document.js';
import { html, trusted } from './html.js';
import { CONSOLE_PATH, EXPLORER_PATH } from './people-paths.js';

export interface ServiceLinks {
  readonly name: string;
  readonly api_version: string;
  readonly docs: string;
  readonly openapi: string;
  readonly agent_card: string;
  readonly mcp: string;
  readonly rest: string;
  readonly console: string;
  readonly explorer: string;
}

/** `mcpPath` comes from the top floor: this floor does not import the MCP channel (docs/architecture.md). */
export function serviceLinks(baseUrl: string, mcpPath: string): ServiceLinks {
  return {
    name: 'munidata',
    api_version: SERVICE_API_VERSION,
    docs: `${baseUrl}/docs`,
    openapi: `${baseUrl}/v1/openapi.json`,
    agent_card: `${baseUrl}${AGENT_CARD_PATH}`,
    mcp: `${baseUrl}${mcpPath}`,
    rest: `${baseUrl}/v1`,
    console: `${baseUrl}${CONSOLE_PATH}`,
    explorer: `${baseUrl}${EXPLORER_PATH}`,
  };
}

export function registerHomeRoute(app: FastifyInstance, baseUrl: string, mcpPath: string): void {
  const links = serviceLinks(baseUrl, mcpPath);
  const json = JSON.stringify(links);
  const page = renderHome(links);
  app.get('/', (request, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('vary', 'Accept');
    if (wantsJson(request.headers.accept)) return reply.type('application/json; charset=utf-8').send(json);
    return reply.type('text/html; charset=utf-8').send(page);
  });
}

/** JSON when the client names it and does not name HTML before it (a browser sends text/html first). */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const lower = accept.toLowerCase();
  const jsonAt = lower.indexOf('application/json');
  if (jsonAt < 0) return false;
  const htmlAt = lower.indexOf('text/html');
  return htmlAt < 0 || jsonAt < htmlAt;
}

const CSS =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}' +
  'code{font-size:.85em;color:#555;overflow-wrap:anywhere}li{margin:.4rem 0}h2{font-size:1.1rem;margin-top:1.5rem}';

function renderHome(links: ServiceLinks): string {
  const row = (label: string, href: string, what: string) =>
    html`<li><a href="${href}">${label}</a> — ${what} <code>${href}</code></li>`;
  const body = html`<main>
<h1>munidata</h1>
<p>Portuguese municipal data as a read-only service (API version <code>${
    links.api_version
  }</code>). Every call needs an API key: <code>Authorization: Bearer sk_live_…</code>.</p>
<h2>For people</h2>
<ul>
${row('Explorer', links.explorer, 'the data as maps and charts, each with the API requests behind it (signed in):')}
${row('Account console', links.console, 'sign in to manage API keys, usage, connected apps and company agents:')}
</ul>
<h2>For programs</h2>
<ul>
${row('API reference', links.docs, 'every operation, its parameters and errors:')}
${row('OpenAPI 3.1 document', links.openapi, 'the REST interface under /v1:')}
${row('A2A agent card', links.agent_card, 'the same operations as A2A skills:')}
<li>MCP server — the same operations as MCP tools (Streamable HTTP), for an MCP client to connect to; a browser
cannot open it: <code>${links.mcp}</code></li>
</ul>
</main>`;
  return htmlDocument('munidata', html`<style>${trusted(CSS)}</style>`, body).text;
}
