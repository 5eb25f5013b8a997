/**
 * An Atom 1.0 document (RFC 4287) written through the service's one escaping tag (`html`: its five entities are XML's
 * too), so that a title or snippet holding markup (`<script>`, `&`) reaches a feed reader as text, never as markup;
 * characters XML 1.0 forbids are dropped.
 */
import { type Html, html, trusted } from './html.js';

export interface AtomEntry {
  readonly id: string;
  readonly title: string;
  readonly updated: string;
  /** Where a reader goes (rel="alternate"): every entry has one (RFC 4287 4.1.1: an entry without content). */
  readonly link: string;
  readonly summary: string | null;
  readonly category: string | null;
}

export interface AtomFeed {
  readonly id: string;
  readonly title: string;
  readonly subtitle: string;
  /** The feed's own URL (rel="self"); say nothing of its token elsewhere. */
  readonly self: string;
  /** Where people read more (rel="alternate"). */
  readonly alternate: string;
  readonly updated: string;
  readonly author: string;
  readonly entries: readonly AtomEntry[];
}

export function renderAtom(feed: AtomFeed): string {
  const entries = feed.entries.map(
    (e) => html`  <entry>
    <id>${xml(e.id)}</id>
    <title type="text">${xml(e.title)}</title>
    <updated>${xml(e.updated)}</updated>
    <link rel="alternate" href="${xml(e.link)}"/>
${
  e.category ? html`    <category term="${xml(e.category)}"/>\n` : ''
}${e.summary ? html`    <summary type="text">${xml(e.summary)}</summary>\n` : ''}  </entry>`,
  );
  return html`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xml(feed.id)}</id>
  <title type="text">${xml(feed.title)}</title>
  <subtitle type="text">${xml(feed.subtitle)}</subtitle>
  <link rel="self" type="application/atom+xml" href="${xml(feed.self)}"/>
  <link rel="alternate" type="text/html" href="${xml(feed.alternate)}"/>
  <updated>${xml(feed.updated)}</updated>
  <author><name>${xml(feed.author)}</name></author>
${joinLines(entries)}
</feed>
`.text;
}

/** Text XML 1.0 may hold: the characters it forbids are dropped; the `html` tag then escapes what remains. */
function xml(text: string): string {
  return text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

function joinLines(entries: readonly Html[]): Html {
  return trusted(entries.map((e) => e.text).join('\n'));
}
