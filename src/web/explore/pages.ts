/**
 * The explorer's pages: server-rendered shells (title, navigation, attribution, the view's configuration as a
 * JSON block) whose pictures the view's script draws from the explorer's data routes (explore-api.ts). Scripts
 * and styles are files served by us (assets.ts): nothing inline, nothing from another origin.
 */
import type { Domain } from '../../lib/domains.js';
import { integrityAnchor } from '../docs-page.js';
import { htmlDocument } from '../document.js';
import { type Html, html, jsonScript } from '../html.js';
import { API_PREFIX, CSV_PREFIX } from './explore-api.js';
import { INTEGRITY_SHARES_PATH } from './integrity-shares.js';
import { LATEST_SIGNALS_PATH } from './latest-signals.js';

export type View = 'map' | 'municipality' | 'procurement' | 'integrity' | 'signals' | 'contract' | 'entity' | 'signal';

/** The data domain a view cannot do without: a plan without it does not see the view (docs/explorer.md). */
export const VIEW_DOMAIN: Record<View, Domain> = {
  map: 'indicators',
  municipality: 'indicators',
  procurement: 'procurement',
  integrity: 'procurement',
  signals: 'signals',
  contract: 'procurement',
  entity: 'procurement',
  signal: 'signals',
};

const VIEW_TITLE: Record<View, string> = {
  map: 'Indicator map',
  municipality: 'Municipality',
  procurement: 'Procurement',
  integrity: 'Integrity flags',
  signals: 'Signals',
  contract: 'Contract',
  entity: 'Buyer or supplier',
  signal: 'Signal',
};

/** The three sources every picture may draw on, credited under the pictures (docs/explorer.md). */
export const ATTRIBUTION = {
  caop: 'Limites administrativos: CAOP — Direção-Geral do Território (DGT), CC BY 4.0; geometria simplificada.',
  ine: 'Indicadores: INE — Instituto Nacional de Estatística (where imported).',
  base: 'Contratação pública: Portal BASE (IMPIC), dados abertos.',
};

export interface PageFacts {
  readonly view: View;
  readonly baseUrl: string;
  readonly domains: readonly Domain[];
  /** The heading: the view's title, or the municipality's name. */
  readonly heading?: string;
  /**
   * Every operation's /v1 path pattern (`:name` a parameter) and whether the explorer answers it as CSV
   * (explore-api.ts): a picture offers a CSV link for those requests alone.
   */
  readonly restPaths?: Readonly<Record<string, boolean>>;
  /** What the view's script needs beyond the common facts (the municipality's code). */
  readonly params?: Record<string, unknown>;
}

const STYLESHEET = html`<link rel="stylesheet" href="/explore/assets/explore.css">`;

export function renderPage(facts: PageFacts): string {
  const config = {
    view: facts.view,
    baseUrl: facts.baseUrl,
    apiPrefix: API_PREFIX,
    csvPrefix: CSV_PREFIX,
    restPaths: facts.restPaths ?? {},
    latestSignalsPath: LATEST_SIGNALS_PATH,
    integritySharesPath: INTEGRITY_SHARES_PATH,
    /** An integrity type's method on /docs: this and the type's key. */
    integrityMethodPrefix: `/docs#${integrityAnchor('')}`,
    domains: facts.domains,
    attribution: ATTRIBUTION,
    ...facts.params,
  };
  const title = facts.heading ?? VIEW_TITLE[facts.view];
  const sameData = html`The same data is in the API: see <a href="/docs">the reference</a>.`;
  const apiReference = html`<a href="/docs">API reference</a>`;
  const head = html`${STYLESHEET}
<script type="application/json" id="explore-config">${jsonScript(config)}</script>
<script src="/explore/assets/d3.min.js" defer></script>
<script src="/explore/assets/topojson-client.min.js" defer></script>
<script type="module" src="/explore/assets/${facts.view}.js"></script>`;
  const body = html`<a class="skip" href="#main">Skip to the content</a>
${navigation(facts)}
<main id="main" tabindex="-1">
<h1 id="title">${title}</h1>
<div id="view" aria-live="polite"><p class="loading">Loading…</p></div>
<noscript><p>The explorer draws its pictures with JavaScript. ${sameData}</p></noscript>
</main>
<footer>
<p>munidata explorer · every picture has a <em>data</em> link to the API request behind it · ${apiReference}</p>
</footer>`;
  return htmlDocument(`${title} — munidata explorer`, head, body).text;
}

function navigation(facts: PageFacts): Html {
  const links: [View, string, string][] = [
    ['map', '/explore', 'Map'],
    ['procurement', '/explore/procurement', 'Procurement'],
    ['integrity', '/explore/integrity', 'Integrity'],
    ['signals', '/explore/signals', 'Signals'],
  ];
  const shown = links.filter(([view]) => facts.domains.includes(VIEW_DOMAIN[view]));
  return html`<header class="top">
<a class="brand" href="/explore">munidata <span>explorer</span></a>
<nav aria-label="Views"><ul>${shown.map(
    ([view, href, text]) =>
      html`<li><a href="${href}"${facts.view === view ? html` aria-current="page"` : ''}>${text}</a></li>`,
  )}<li class="console"><a href="/console">Console</a></li><li><a href="/">Home</a></li></ul></nav>
</header>`;
}

/** A page that says why there is nothing to show (no session is handled by a redirect, not here). */
export function renderRefusal(status: number, title: string, detail: string): string {
  const elsewhere = html`<li class="console"><a href="/console">Console</a></li><li><a href="/">Home</a></li>`;
  const body = html`<header class="top"><a class="brand" href="/explore">munidata <span>explorer</span></a>
<nav aria-label="Elsewhere"><ul>${elsewhere}</ul></nav></header>
<main id="main"><h1>${title}</h1><p>${detail}</p><p class="muted">HTTP ${status}</p></main>`;
  return htmlDocument(`${title} — munidata explorer`, STYLESHEET, body).text;
}
