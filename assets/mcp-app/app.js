/**
 * An MCP Apps view's start: connect to the host, wait for the tool's input and result, draw the view the document
 * names (`<html data-view>`, views.js). The boundaries, when the view needs them, are inline JSON in the document.
 */
import { h } from '../draw/dom.js';
import { connectToHost } from './bridge.js';
import { VIEWS } from './views.js';

const root = document.getElementById('view');
const draw = VIEWS[document.documentElement.dataset.view];
const boundaries = document.getElementById('boundaries');
let input = {};

function show(...children) {
  root.replaceChildren(...children);
}

async function render(result, ask) {
  if (result.isError) {
    const problem = result.structuredContent ?? {};
    show(h('p', { class: 'error', role: 'alert' }, problem.detail ?? problem.title ?? 'The tool call failed.'));
    return;
  }
  try {
    const topology = boundaries ? JSON.parse(boundaries.textContent) : undefined;
    show(await draw({ input, answer: result.structuredContent ?? {}, ask, topology }));
    root.setAttribute('data-drawn', 'true');
  } catch (error) {
    show(h('p', { class: 'error', role: 'alert' }, `This answer could not be drawn: ${error.message}`));
  }
}

let ask;
connectToHost({
  name: 'munidata-view',
  version: '1',
  on: {
    'ui/notifications/tool-input': (params) => {
      input = params.arguments ?? {};
    },
    'ui/notifications/tool-result': (result) => render(result, ask),
    'ui/notifications/tool-cancelled': () => show(h('p', {}, 'The tool call was cancelled.')),
  },
}).then(({ host, request }) => {
  if (host?.hostCapabilities?.serverTools) {
    ask = (name, args) => request('tools/call', { name, arguments: args });
  }
});
