/**
 * The confirmation page of a revocation opened once it is revoked already (docs/console.md, "Sent twice"): a second
 * tab, a stale or bookmarked link. A revoked key, credential or licence stays in its list, so rather than ask again
 * the page says since when it is revoked and what that means, with a way back and nothing to press; its form,
 * sent again, is no error either. Unlike what is deleted (gone.ts), it is still there to name: one the account does
 * not have (missing, or another account's) stays the 404 its form answers, and nothing of it is told.
 */
import { type Html, html } from '../html.js';
import { date, page, type Section } from './html.js';
import type { SignedIn } from './signed-in.js';

export interface RevokedAlready {
  readonly who: SignedIn;
  readonly csrf: string;
  readonly section: Section;
  readonly title: string;
  /** What is revoked, as the sentence's subject: "The key <code>sk_live_ab12</code>". */
  readonly subject: Html;
  /** When it was revoked (ISO). */
  readonly since: string;
  /** What being revoked means: "every request with it is refused". */
  readonly refused: string;
  /** The list it is in, and the link's words. */
  readonly back: { readonly href: string; readonly label: string };
}

/** The page of something revoked already: since when, what that means, a link back; no form. */
export function revokedPage(o: RevokedAlready): Html {
  return page({
    title: o.title,
    who: o.who,
    csrf: o.csrf,
    section: o.section,
    body: html`<section><p>${o.subject} is revoked already, since ${date(o.since)}: ${o.refused}.
There is nothing more to do.</p>
<p><a href="${o.back.href}">${o.back.label}</a></p></section>`,
  });
}
