/**
 * The console's HTML: one page shell (navigation, who is signed in, the sign-out form) around each page's
 * content. Server-rendered, no inline script or style (the CSP allows neither): the stylesheet and the small
 * script of the copy buttons are served from /console/assets (assets.ts). Every page is written with the `html` tag
 * (../html.ts), which escapes what it is given.
 */
import type { FastifyReply } from 'fastify';
import type { Domain } from '../../lib/domains.js';
import { htmlDocument } from '../document.js';
import { type Html, html } from '../html.js';
import { EXPLORER_PATH } from '../people-paths.js';
import { canEdit, type SignedIn } from './signed-in.js';

/** The hidden field every state-changing form carries (the CSRF plugin reads `_csrf`). */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

export type Section =
  | 'keys'
  | 'apps'
  | 'usage'
  | 'alerts'
  | 'webhooks'
  | 'agents'
  | 'marketplace'
  | 'account'
  | 'pipeline';

interface SectionLink {
  id: Section;
  label: string;
  roles?: readonly string[];
  domain?: Domain;
  /** Only for the operators (CONSOLE_OPERATORS). */
  operators?: true;
}

const SECTIONS: readonly SectionLink[] = [
  { id: 'keys', label: 'API keys' },
  { id: 'apps', label: 'Connected apps' },
  { id: 'usage', label: 'Usage and plan' },
  { id: 'alerts', label: 'Alerts', domain: 'alerts' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'agents', label: 'Company agents', roles: ['owner', 'admin'] },
  { id: 'marketplace', label: 'Marketplace' },
  { id: 'account', label: 'Account' },
  { id: 'pipeline', label: 'Pipeline', operators: true },
];

export interface PageParts {
  readonly title: string;
  readonly who: SignedIn;
  readonly csrf: string;
  readonly section: Section;
  readonly body: Html;
}

export function page(parts: PageParts): Html {
  const { who } = parts;
  const nav = [
    SECTIONS.filter(
      (s) =>
        (!s.roles || s.roles.includes(who.user.role)) &&
        (!s.domain || who.plan.domains.includes(s.domain)) &&
        (!s.operators || who.operator),
    ).map(
      (s) => html`<a href="/console/${s.id}"${s.id === parts.section && html` aria-current="page"`}>${s.label}</a>`,
    ),
    // The explorer reads the data as the account's plan allows: a plan without data access has no view there.
    who.plan.api_access && html`<a href="${EXPLORER_PATH}">Explorer</a>`,
  ];
  return shell(
    parts.title,
    // A keyboard goes past the navigation's links to the page at once (the explorer's pages open the same way).
    html`<a class="skip" href="#main">Skip to the content</a>
<header class="top">
<a class="brand" href="/console">munidata <span>console</span></a>
<nav aria-label="Console">${nav}</nav>
<form class="who" method="post" action="/console/sign-out">${csrfField(parts.csrf)}
<span title="${who.user.email}">${who.user.display_name} · ${who.account.name} · <em>${who.user.role}</em></span>
<button type="submit" class="link">Sign out</button></form>
</header>
<main id="main" tabindex="-1">
${webhookNotices(who, parts.csrf)}<h1>${parts.title}</h1>
${parts.body}
</main>`,
  );
}

/**
 * The notice of each endpoint disabled without the account (docs/webhooks.md, Disabled endpoints), on every page
 * until it is turned on again or acknowledged (owners and admins; the others read it).
 */
function webhookNotices(who: SignedIn, csrf: string): Html {
  const editor = canEdit(who);
  return html`${who.webhookNotices.map(
    (e) => html`<div class="banner" role="alert"><p><strong>A webhook endpoint is off.</strong>
${e.url} was disabled: ${e.disabled_reason ?? 'no reason recorded'}. Its deliveries wait until it is turned on
again.</p>
<div class="actions"><a href="/console/webhooks/${e.id}">See the endpoint and its deliveries</a>${
      editor &&
      html`<form method="post" action="/console/webhooks/${e.id}/acknowledge">${csrfField(csrf)}
<button type="submit" class="secondary">Acknowledge</button></form>`
    }</div></div>`,
  )}`;
}

/** A page without the navigation (sign-in, set password). */
export function plainPage(title: string, body: Html): Html {
  const brand = html`<p class="brand"><a href="/console">munidata <span>console</span></a></p>`;
  return shell(title, html`<main class="narrow">${brand}<h1>${title}</h1>\n${body}\n</main>`);
}

function shell(title: string, body: Html): Html {
  const head = html`<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>`;
  return htmlDocument(`${title} — munidata console`, head, body);
}

/**
 * The heading of a column whose cells say what they are themselves (a Revoke… link, a Turn off button, "this
 * session"): named for a screen reader (axe: empty-table-header) but hidden on the screen, and left out of the phone
 * layout's row labels (console.js skips a heading marked `unlabelled`), where its name beside every button would
 * only be noise.
 */
export function hiddenHeading(name: string): Html {
  return html`<th class="unlabelled"><span class="vh">${name}</span></th>`;
}

/** The heading of a column of buttons and links. */
export const ACTIONS_HEADING = hiddenHeading('Actions');

/** A message above a form: an error (role=alert) or a notice. */
export function message(kind: 'error' | 'notice', text: string | undefined): Html {
  if (!text) return html``;
  return html`<p class="${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</p>`;
}

/** A secret shown once, with a copy button (console.js). */
export function secretOnce(label: string, secret: string): Html {
  return secretBox(html`<strong>${label}</strong> It is shown this once: copy it now and keep it on a server.`, secret);
}

/**
 * The box of what is shown only once (a secret, a one-time link), with the copy button console.js wires to it by
 * `data-copy` and `data-secret`; `lead` says what it is.
 */
export function secretBox(lead: Html, secret: string): Html {
  const copyButton = html`<button type="button" data-copy="secret">Copy</button>`;
  return html`<div class="secret" role="status"><p>${lead}</p>
<p class="copy-row"><code id="secret" data-secret>${secret}</code> ${copyButton}</p></div>`;
}

export function date(iso: string | null | undefined): Html {
  return iso ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')}</time>` : html`—`;
}

/** The confirmation before something that cannot be undone (a revocation): a page with one form, no script. */
export function confirmPage(o: {
  who: SignedIn;
  csrf: string;
  section: Section;
  title: string;
  question: Html;
  action: string;
  button: string;
  back: string;
}): Html {
  return page({
    title: o.title,
    who: o.who,
    csrf: o.csrf,
    section: o.section,
    body: html`<section><p>${o.question}</p>
<form method="post" action="${o.action}">${csrfField(o.csrf)}
<button type="submit" class="danger">${o.button}</button> <a href="${o.back}">Cancel</a></form></section>`,
  });
}

/** Sends a console page. */
export function sendHtml(reply: FastifyReply, body: Html): FastifyReply {
  return reply.type('text/html; charset=utf-8').send(body.text);
}
