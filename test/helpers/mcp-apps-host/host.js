/**
 * A web host of MCP Apps for test/mcp-apps-browser.test.ts, built on the extension's official host bridge
 * (`AppBridge` and `PostMessageTransport` from @modelcontextprotocol/ext-apps, bundled with the MCP client by the
 * test as `window.McpHost`). `showTool(name, args)` does what a chat client does: connects to /mcp, finds the view
 * the tool names in `_meta.ui.resourceUri`, calls the tool, reads the view, frames it through the sandbox proxy (an
 * iframe of another origin) and hands it the tool's input and result.
 */
const { AppBridge, PostMessageTransport, Client, StreamableHTTPClientTransport } = window.McpHost;
const UI = 'io.modelcontextprotocol/ui';
const HOST = { name: 'munidata-test-host', version: '1.0.0' };

window.showTool = async (name, args) => {
  const client = new Client(HOST, {
    capabilities: { extensions: { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.href)));
  const { tools } = await client.listTools();
  const uri = tools.find((tool) => tool.name === name)?._meta?.ui?.resourceUri;
  if (!uri) throw new Error(`${name} names no view`);
  const called = client.callTool({ name, arguments: args });
  const {
    contents: [view],
  } = await client.readResource({ uri });

  const frame = document.createElement('iframe');
  frame.title = uri;
  frame.src = document.body.dataset.sandbox;
  document.getElementById('conversation').append(frame);
  const bridge = new AppBridge(
    client,
    HOST,
    { serverTools: {}, logging: {} },
    {
      hostContext: { theme: 'light', displayMode: 'inline', platform: 'web', containerDimensions: { width: 800 } },
    },
  );
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = resolve;
  });
  bridge.onsandboxready = () =>
    bridge.sendSandboxResourceReady({ html: view.text, csp: view._meta?.ui?.csp, sandbox: 'allow-scripts' });
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(await called);
  return uri;
};
