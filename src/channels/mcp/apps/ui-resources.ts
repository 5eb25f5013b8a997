/**
 * The `ui://` resources (docs/mcp.md, "Apps"): `list` names the views of the tools a caller may call, `read` answers
 * a view's HTML with the extension's `_meta.ui` (an empty CSP: the view reaches no origin; a border). The views
 * hold no data, so reading one is free and open to any caller admitted to the server; the data comes with the
 * tool result the host passes the view.
 */

import { appHtml } from './app-html.js';
import { APP_MIME_TYPE, APP_VIEWS, type AppView } from './app-views.js';

const UI_META = Object.freeze({ ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });

export interface ResourceEntry {
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
}

export interface ResourceContents {
  readonly uri: string;
  readonly mimeType: string;
  readonly text: string;
  readonly _meta: typeof UI_META;
}

export const uiResources = Object.freeze({
  scheme: 'ui:',
  /** The views whose tools include one of `callable` (tool names). */
  list(callable: ReadonlySet<string>): ResourceEntry[] {
    return APP_VIEWS.filter((v) => v.tools.some((tool) => callable.has(tool))).map(entryOf);
  },
  /** The contents of a `ui://` resource, or undefined when there is none of that address. */
  read(uri: string): ResourceContents[] | undefined {
    const view = APP_VIEWS.find((v) => v.uri === uri);
    if (view === undefined) return undefined;
    return [{ uri: view.uri, mimeType: APP_MIME_TYPE, text: appHtml(view), _meta: UI_META }];
  },
});

function entryOf(view: AppView): ResourceEntry {
  return { uri: view.uri, name: view.name, title: view.title, description: view.description, mimeType: APP_MIME_TYPE };
}
