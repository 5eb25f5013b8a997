/**
 * Child process of `bench/a2a.js`: the `@a2a-js/sdk` server's own JSON-RPC handling (DefaultRequestHandler,
 * InMemoryTaskStore, JsonRpcTransportHandler), serving one skill equivalent to `indicators_snapshot`. The parent
 * sends the skill's card entry (from our agent card) and the data part and metadata our server answered, so the
 * SDK side does no data work and no authentication at all: its figures are the cost of the SDK's A2A layer
 * alone, a generous peer.
 *
 *   forked by bench/a2a.js with one argument, the variant; first IPC message: { type: 'skill', skill, data, metadata }
 *
 * The executor does what the SDK's samples do (src/samples/authentication/agent_executor.ts): it reads the
 * request's data part, checks the skill, and publishes one `AgentEvent.message(...)` — a ROLE_AGENT message with
 * a new messageId, one data part holding the JSON our service answers, and the same `{skill, rest}` metadata —
 * so the SDK answers `result.message`, as our service does.
 *
 * Variants:
 *   docs  as the SDK's README and samples show a server (src/samples/agents/sample-agent/index.ts): Express,
 *         `new DefaultRequestHandler(card, new InMemoryTaskStore(), executor)`, `agentCardHandler` at the
 *         well-known path and `jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication })`
 *         mounted at /a2a (it brings its own Content-Type guard and express.json()).
 *   lean  the fastest the SDK allows: plain node:http, one JSON.parse, the same DefaultRequestHandler driven
 *         through `JsonRpcTransportHandler.handle(body, context)` directly (the version check kept, as the
 *         express adapter does it), no Express.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

if (!process.send) {
  process.stderr.write('usage: forked by bench/a2a.js\n');
  process.exit(2);
}
const variant = process.argv[2] ?? 'docs';

// Listen for the first message before the SDK is loaded (an IPC message with no listener yet is lost).
const first = new Promise((resolve) => {
  const onMessage = (message) => {
    if (message?.type !== 'skill') return;
    process.off('message', onMessage);
    resolve(message);
  };
  process.on('message', onMessage);
});
const {
  A2A_PROTOCOL_VERSION,
  A2A_VERSION_HEADER,
  AGENT_CARD_PATH,
  AgentCard,
  Extensions,
  HTTP_EXTENSION_HEADER,
  Role,
} = await import('@a2a-js/sdk');
const {
  AgentEvent,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  UnauthenticatedUser,
  validateVersion,
} = await import('@a2a-js/sdk/server');
const { RequestMalformedError } = await import('@a2a-js/sdk/errors');
const { skill, data, metadata } = await first;

const A2A_PATH = '/a2a';

/** The card: one JSONRPC 1.0 interface and the skill as our card describes it; built from wire JSON (gotcha 1). */
const card = AgentCard.fromJSON({
  name: 'sdk-peer',
  description: 'The @a2a-js/sdk server answering one skill equivalent to indicators_snapshot.',
  version: '1.0.0',
  supportedInterfaces: [
    { url: `http://127.0.0.1${A2A_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION },
  ],
  capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
  defaultInputModes: ['application/json'],
  defaultOutputModes: ['application/json'],
  skills: [skill],
});

class SkillExecutor {
  cancelTask = async () => {};

  async execute(requestContext, eventBus) {
    const part = requestContext.userMessage.parts[0];
    const call = part?.content?.$case === 'data' ? part.content.value : undefined;
    if (requestContext.userMessage.parts.length !== 1 || call?.skill !== skill.id) {
      throw new RequestMalformedError(`Send exactly one data part {"skill": "${skill.id}", "input": {…}}.`);
    }
    eventBus.publish(
      AgentEvent.message({
        messageId: randomUUID(),
        role: Role.ROLE_AGENT,
        parts: [
          { content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: 'application/json' },
        ],
        taskId: '',
        contextId: '',
        extensions: [],
        metadata,
        referenceTaskIds: [],
      }),
    );
  }
}

const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new SkillExecutor());

async function docsServer() {
  const { default: express } = await import('express');
  const { agentCardHandler, jsonRpcHandler, UserBuilder } = await import('@a2a-js/sdk/server/express');
  const app = express();
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use(A2A_PATH, jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return createServer(app);
}

async function leanServer() {
  const transport = new JsonRpcTransportHandler(requestHandler);
  const user = new UnauthenticatedUser();
  const send = (res, response) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(response));
  };
  return createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== A2A_PATH) {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        send(res, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Invalid JSON payload.' } });
        return;
      }
      try {
        const requestedVersion = req.headers[A2A_VERSION_HEADER.toLowerCase()] || undefined;
        const context = defaultServerCallContextBuilder({
          extensions: Extensions.parseServiceParameter(req.headers[HTTP_EXTENSION_HEADER.toLowerCase()]),
          user,
          headers: req.headers,
          requestedVersion,
        });
        validateVersion(context.requestedVersion, card, 'JSONRPC');
        send(res, await transport.handle(body, context));
      } catch (error) {
        send(res, { jsonrpc: '2.0', id: body?.id ?? null, error: JsonRpcTransportHandler.mapToJSONRPCError(error) });
      }
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
