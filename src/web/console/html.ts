/**
 * The console's HTML: one page shell (navigation, who is signed in, the sign-out form) around each page's
 * content. Server-rendered, no inline script or style (the CSP allows neither): the stylesheet and the small
 * script of the copy buttons are served from /console/assets (assets.ts). Every text goes through `esc`.
 */
import type { FastifyReply } from 'fastify';
import { EXPLORER_PATH } from '../people-paths.js';
import type { SignedIn } from './signed-in.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values alike. */
export function esc(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** The hidden field every state-changing form carries (the CSRF plugin reads `_csrf`). */
export function csrfField(token: string): string {
  return `<input type="hidden" name="_csrf" value="${esc(token)}">`;
}

export type Section = 'keys' | 'apps' | 'usage' | 'agents' | 'marketplace' | 'account';

const SECTIONS: readonly { id: Section; label: string; roles?: readonly string[] }[] = [
  { id: 'keys', label: 'API keys' },
  { id: 'apps', label: 'Connected apps' },
  { id: 'usage', label: 'Usage and plan' },
  { id: 'agents', label: 'Company agents', roles: ['owner', 'admin'] },
  { id: 'marketplace', label: 'Marketplace' },
  { id: 'account', label: 'Account' },
];

export interface PageParts {
  readonly title: string;
  readonly who: SignedIn;
  readonly csrf: string;
  readonly section: Section;
  readonly body: string;
}

export function page(parts: PageParts): string {
  const { who } = parts;
  const nav =
    SECTIONS.filter((s) => !s.roles || s.roles.includes(who.user.role))
      .map((s) => `<a href="/console/${s.id}"${s.id === parts.section ? ' aria-current="page"' : ''}>${esc(s.label)}</a>`)
      .join('') +
    // The explorer reads the data as the account's plan allows: a plan without data access has no view there.
    (who.plan.api_access ? `<a href="${EXPLORER_PATH}">Explorer</a>` : '');
  return shell(
    parts.title,
    `<header class="top">
<a class="brand" href="/console">munidata <span>console</span></a>
<nav aria-label="Console">${nav}</nav>
<form class="who" method="post" action="/console/sign-out">${csrfField(parts.csrf)}
<span title="${esc(who.user.email)}">${esc(who.user.display_name)} · ${esc(who.account.name)} · <em>${esc(who.user.role)}</em></span>
<button type="submit" class="link">Sign out</button></form>
</header>
<main>
<h1>${esc(parts.title)}</h1>
${parts.body}
</main>`,
  );
}

/** A page without the navigation (sign-in, set password). */
export function plainPage(title: string, body: string): string {
  return shell(
    title,
    `<main class="narrow"><p class="brand"><a href="/console">munidata <span>console</span></a></p><h1>${esc(title)}</h1>\n${body}\n</main>`,
  );
}

function shell(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} — munidata console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
${body}
</body>
</html>
`;
}

/** A message above a form: an error (role=alert) or a notice. */
export function message(kind: 'error' | 'notice', text: string | undefined): string {
  if (!text) return '';
  return `<p class="${kind}"${kind === 'error' ? ' role="alert"' : ' role="status"'}>${esc(text)}</p>`;
}

/** A secret shown once, with a copy button (console.js). */
export function secretOnce(label: string, secret: string): string {
  return `<div class="secret" role="status"><p><strong>${esc(label)}</strong> It is shown this once: copy it now and keep it on a server.</p>
<p class="copy-row"><code id="secret" data-secret>${esc(secret)}</code> <button type="button" data-copy="secret">Copy</button></p></div>`;
}

export function date(iso: string | null | undefined): string {
  return iso ? `<time datetime="${esc(iso)}">${esc(iso.slice(0, 16).replace('T', ' '))}</time>` : '—';
}

/** The confirmation before something that cannot be undone (a revocation): a page with one form, no script. */
export function confirmPage(o: {
  who: SignedIn;
  csrf: string;
  section: Section;
  title: string;
  /** HTML: the question, escaped by the caller. */
  question: string;
  action: string;
  button: string;
  back: string;
}): string {
  return page({
    title: o.title,
    who: o.who,
    csrf: o.csrf,
    section: o.section,
    body: `<section><p>${o.question}</p>
<form method="post" action="${esc(o.action)}">${csrfField(o.csrf)}
<button type="submit" class="danger">${esc(o.button)}</button> <a href="${esc(o.back)}">Cancel</a></form></section>`,
  });
}

/** Sends a console page. */
export function sendHtml(reply: FastifyReply, body: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').send(body);
}
