/**
 * Child process of `bench/mcp.js`: the MCP SDK's own stateless Streamable HTTP server, with a new server and a
 * new `StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })` for every
 * request, serving one tool equivalent to `indicators_snapshot`. The parent sends the tool's definition and the
 * structured content our server answered, so the SDK side does no data work and no authentication at all: its
 * figures are the cost of the SDK's MCP layer alone, a generous peer.
 *
 * forked by bench/mcp.js with one argument, the variant; first IPC message: { type: 'tool', definition,
 * structuredContent }
 *
 * Variants:
 *   docs  as the SDK's documentation shows a stateless server (README "Without Session Management"; example
 *         simpleStatelessStreamableHttp.ts): Express with express.json(), a new `McpServer` per request from
 *         `getServer()`, the tool registered with zod input and output schemas (the SDK validates both).
 *   lean  the fastest the SDK allows: plain node:http, the low-level `Server` with the raw JSON Schema tool
 *         definition (no zod, no output validation), one shared Ajv validator instead of one per server.
 */
import { createServer } from 'node:http';

if (!process.send) {
  process.stderr.write('usage: forked by bench/mcp.js\n');
  process.exit(2);
}
const variant = process.argv[2] ?? 'docs';

// Listen for the first message before the SDK is loaded (an IPC message with no listener yet is lost).
const first = new Promise((resolve) => {
  const onMessage = (message) => {
    if (message?.type !== 'tool') return;
    process.off('message', onMessage);
    resolve(message);
  };
  process.on('message', onMessage);
});
const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
const { definition, structuredContent } = await first;
const result = { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };

/** One server and one transport per request, closed with the response (as the SDK's stateless example). */
async function serve(newServer, req, res, body) {
  const server = newServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    transport.close();
    server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  } catch {
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null }));
    }
  }
}

const METHOD_NOT_ALLOWED = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed.' },
  id: null,
});

async function docsServer() {
  const { default: express } = await import('express');
  const { z } = await import('zod');
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const row = z.object({
    municipality: z.string(),
    name: z.string(),
    district: z.string(),
    value: z.number().nullable().optional(),
    percentile: z.number().nullable().optional(),
    is_stale: z.boolean().optional(),
    treatment: z.string(),
  });
  const getServer = () => {
    const server = new McpServer({ name: 'sdk-peer', version: '1.0.0' });
    server.registerTool(
      definition.name,
      {
        title: definition.title,
        description: definition.description,
        inputSchema: {
          key: z.string(),
          cursor: z.string().optional(),
          limit: z.number().int().min(1).max(200).optional(),
        },
        outputSchema: {
          items: z.array(row),
          next_cursor: z.string().nullable().optional(),
          has_more: z.boolean().optional(),
        },
        annotations: definition.annotations,
      },
      async () => result,
    );
    return server;
  };
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/mcp', (req, res) => serve(getServer, req, res, req.body));
  app.get('/mcp', (_req, res) =>
    res.status(405).set('allow', 'POST').type('application/json').send(METHOD_NOT_ALLOWED),
  );
  return createServer(app);
}

async function leanServer() {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { AjvJsonSchemaValidator } = await import('@modelcontextprotocol/sdk/validation/ajv');
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const validator = new AjvJsonSchemaValidator();
  const newServer = () => {
    const server = new Server(
      { name: 'sdk-peer', version: '1.0.0' },
      { capabilities: { tools: {} }, jsonSchemaValidator: validator },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [definition] }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      if (request.params.name !== definition.name)
        throw Object.assign(new Error(`Unknown tool: ${request.params.name}`), { code: -32602 });
      return result;
    });
    return server;
  };
  return createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' });
      res.end(METHOD_NOT_ALLOWED);
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }));
        return;
      }
      void serve(newServer, req, res, body);
    });
  });
}

const http = variant === 'lean' ? await leanServer() : await docsServer();
http.listen(0, '127.0.0.1', () => {
  process.send({ type: 'listening', port: http.address().port, pid: process.pid });
});

function stop() {
  http.close();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
process.on('message', (message) => {
  if (message?.type === 'cpu') process.send({ type: 'cpu', usage: process.cpuUsage() });
});
