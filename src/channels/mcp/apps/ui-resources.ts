/**
 * The `ui://` resources (docs/mcp.md, "Apps"), one provider of the MCP server's resource table: `list` names the
 * views of the tools a caller may call, `read` answers a view's HTML with the extension's `_meta.ui` (an empty CSP:
 * the view reaches no origin; a border). The views hold no data, so reading one is free and open to any caller
 * admitted to the server; the data comes with the tool result the host passes the view.
 */
import type { Admission } from '../../../core/admission.js';
import type { Core } from '../../../core/core.js';
import type { MethodAnswer } from '../../jsonrpc/index.js';
import type { ResourceEntry, ResourceProvider, ResourceTemplate } from '../resources/resource-provider.js';
import { resourceNotFound } from '../resources/resource-providers.js';
import { appHtml } from './app-html.js';
import { APP_MIME_TYPE, APP_VIEWS, type AppView } from './app-views.js';

const UI_META = Object.freeze({ ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });

export class UiResources implements ResourceProvider<Admission> {
  readonly scheme = 'ui';
  readonly #core: Core;

  constructor(core: Core) {
    this.#core = core;
  }

  async templates(): Promise<readonly ResourceTemplate[]> {
    return [];
  }

  /** The views whose tools include one this caller may call. */
  async list(admission: Admission): Promise<readonly ResourceEntry[]> {
    const callable = new Set((await this.#core.callableOperations(admission.caller)).map((op) => op.name));
    return APP_VIEWS.filter((view) => view.tools.some((tool) => callable.has(tool))).map(entryOf);
  }

  async read(_admission: Admission, uri: string): Promise<MethodAnswer> {
    const view = APP_VIEWS.find((v) => v.uri === uri);
    if (view === undefined) throw resourceNotFound(uri);
    const contents = [{ uri: view.uri, mimeType: APP_MIME_TYPE, text: appHtml(view), _meta: UI_META }];
    return { result: JSON.stringify({ contents }) };
  }
}

function entryOf(view: AppView): ResourceEntry {
  return { uri: view.uri, name: view.name, title: view.title, description: view.description, mimeType: APP_MIME_TYPE };
}
