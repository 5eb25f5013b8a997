/**
 * An Atom 1.0 document (RFC 4287) written as text: every value escaped for XML, so that a title or snippet holding
 * markup (`<script>`, `&`) reaches a feed reader as text, never as markup; characters XML 1.0 forbids are dropped.
 */

export interface AtomEntry {
  readonly id: string;
  readonly title: string;
  readonly updated: string;
  readonly link: string | null;
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
    (e) => `  <entry>
    <id>${xml(e.id)}</id>
    <title type="text">${xml(e.title)}</title>
    <updated>${xml(e.updated)}</updated>
${e.link ? `    <link rel="alternate" href="${xml(e.link)}"/>\n` : ''}${
  e.category ? `    <category term="${xml(e.category)}"/>\n` : ''
}${e.summary ? `    <summary type="text">${xml(e.summary)}</summary>\n` : ''}  </entry>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xml(feed.id)}</id>
  <title type="text">${xml(feed.title)}</title>
  <subtitle type="text">${xml(feed.subtitle)}</subtitle>
  <link rel="self" type="application/atom+xml" href="${xml(feed.self)}"/>
  <link rel="alternate" type="text/html" href="${xml(feed.alternate)}"/>
  <updated>${xml(feed.updated)}</updated>
  <author><name>${xml(feed.author)}</name></author>
${entries.join('\n')}
</feed>
`;
}

/** Text as XML character data or an attribute value (double-quoted). */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
