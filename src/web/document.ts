/**
 * The document around every page the service renders for a browser (the console, the explorer, /docs, the home
 * page): one head for all — UTF-8, a phone's width, an empty icon so that no browser asks for /favicon.ico — with
 * the page's title and what the page links or holds (its style, its scripts), then its body.
 */
import { type Html, html } from './html.js';

export function htmlDocument(title: string, head: Html, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
${head}
</head>
<body>
${body}
</body>
</html>
`;
}
