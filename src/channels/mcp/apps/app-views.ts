/**
 * The MCP Apps views this server offers (extension `io.modelcontextprotocol/ui`, docs/mcp.md "Apps"): each a
 * `ui://munidata/…` resource of type `text/html;profile=mcp-app`, and the tools whose result it draws. A tool
 * names its view in its descriptor's `_meta.ui.resourceUri`; a host with the extension frames the view and
 * passes it the tool result, any other client reads the same structured JSON as before.
 */

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

export interface AppView {
  /** The name `<html data-view>` gives the view's script (assets/mcp-app/views.js). */
  readonly view: string;
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly tools: readonly string[];
  /** The view draws municipalities: the 308 boundaries go inline with it. */
  readonly boundaries: boolean;
}

export const APP_VIEWS: readonly AppView[] = [
  {
    view: 'indicator-map',
    uri: 'ui://munidata/indicator-map',
    name: 'indicator-map',
    title: 'Indicator map',
    description: 'A choropleth of an `indicators_snapshot` answer over the 308 municipalities, with its legend.',
    tools: ['indicators_snapshot'],
    boundaries: true,
  },
  {
    view: 'indicator-series',
    uri: 'ui://munidata/indicator-series',
    name: 'indicator-series',
    title: 'Indicator series',
    description: 'The lines over time of an `indicators_series` answer, one per municipality.',
    tools: ['indicators_series'],
    boundaries: false,
  },
  {
    view: 'procurement-entity',
    uri: 'ui://munidata/procurement-entity',
    name: 'procurement-entity',
    title: 'Buyer panel',
    description:
      "A buyer's contract euros per year (`procurement_entity_profile`) or its integrity flags per type " +
      '(`procurement_entity_red_flags`).',
    tools: ['procurement_entity_profile', 'procurement_entity_red_flags'],
    boundaries: false,
  },
];

const VIEW_OF_TOOL = new Map(APP_VIEWS.flatMap((v) => v.tools.map((tool) => [tool, v] as const)));

/** The view that draws a tool's result, if one does. */
export function appViewOfTool(tool: string): AppView | undefined {
  return VIEW_OF_TOOL.get(tool);
}
