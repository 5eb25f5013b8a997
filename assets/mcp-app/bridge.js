/**
 * The view's side of the MCP Apps bridge (extension `io.modelcontextprotocol/ui`, docs/mcp.md "Apps"): JSON-RPC
 * over `postMessage` with the host that framed it. `ui/initialize` and `ui/notifications/initialized`, then the
 * host's `ui/notifications/tool-input` and `tool-result` reach `on`'s handlers; the view's size goes up as
 * `ui/notifications/size-changed`; `request` asks the host (for `tools/call`, which the host relays to this
 * server). Nothing else leaves the view: it fetches nothing.
 */

const PROTOCOL_VERSION = '2026-01-26';

export function connectToHost({ name, version, on }) {
  const host = window.parent;
  const pending = new Map();
  let nextId = 1;
  const send = (message) => host.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ id, method, params });
    });

  window.addEventListener('message', (event) => {
    if (event.source !== host) return;
    const message = event.data;
    if (message?.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result);
    } else if (message.id !== undefined) {
      // Requests from the host: a liveness check, or teardown; the view keeps no state to save.
      const known = message.method === 'ping' || message.method === 'ui/resource-teardown';
      send(
        known
          ? { id: message.id, result: {} }
          : { id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } },
      );
    } else {
      on[message.method]?.(message.params ?? {});
    }
  });

  return request('ui/initialize', {
    protocolVersion: PROTOCOL_VERSION,
    appInfo: { name, version },
    appCapabilities: { availableDisplayModes: ['inline'] },
  }).then((result) => {
    send({ method: 'ui/notifications/initialized', params: {} });
    reportSize(send);
    return { host: result, request };
  });
}

/** The document's size, whenever it changes, so that a host with a flexible container fits the frame to it. */
function reportSize(send) {
  let last = '';
  const observer = new ResizeObserver(() => {
    const width = Math.ceil(document.documentElement.scrollWidth);
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (`${width}x${height}` === last) return;
    last = `${width}x${height}`;
    send({ method: 'ui/notifications/size-changed', params: { width, height } });
  });
  observer.observe(document.documentElement);
}
