/**
 * The data service's MCP server: `POST /mcp`. A translator over the registry and the core: every operation is
 * a tool of the same name and input; every check and handler runs in the core; each error takes the MCP form
 * that the core's error table (ERROR_KINDS, `mcp`) gives its kind. The protocol itself (transport rules,
 * methods, error forms) is `mcp-protocol.ts`, shared with the company agents; this file says what the data
 * server is.
 *
 * Admission (HTTP level): Origin (403) → credential (401) → per-minute limit (429) → plan with data API access (403).
 * Counting: every HTTP request counts against the per-minute limit (`core.admit`); only `tools/call` of a
 * data tool counts against the monthly quota (`core.execute` reserves it, the channel commits it; `me` is free).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Admission } from '../../core/admission.js';
import { buildCharged } from '../../core/charge.js';
import type { Core } from '../../core/core.js';
import type { AnyOperation } from '../../core/operation.js';
import type { Json } from '../../lib/json.js';
import type { Registry } from '../../operations/registry.js';
import { DataChannelEndpoint } from '../http/data-channel-endpoint.js';
import { protectedResourceFacts } from '../http/oauth-resource-facts.js';
import type { MethodAnswer } from '../jsonrpc/index.js';
import { UiResources } from './apps/ui-resources.js';
import { completeResult } from './completion/complete.js';
import { type McpAgent, type McpMethod, mountMcpEndpoint } from './mcp-protocol.js';
import { DataPrompts } from './prompts/data-prompts.js';
import { DataResources } from './resources/data-resources.js';
import { ResourceProviders } from './resources/resource-providers.js';
import { RestResources } from './resources/rest-resources.js';
import { SuccessResultCache, successResultJson } from './results.js';
import { dataServerFacts, MCP_PATH, type ServerFacts } from './server-facts.js';
import { type Tool, ToolCatalogue } from './tools.js';

export function registerMcpChannel(app: FastifyInstance, core: Core, registry: Registry): void {
  mountMcpEndpoint(app, MCP_PATH, new DataMcpServer(core, new ToolCatalogue(registry.all), registry.all));
}

class DataMcpServer extends DataChannelEndpoint implements McpAgent<Admission, Tool> {
  readonly #tools: ToolCatalogue;
  readonly #facts: ServerFacts;
  readonly #results = new SuccessResultCache();
  readonly methods: Readonly<Record<string, McpMethod<Admission>>>;

  constructor(core: Core, tools: ToolCatalogue, operations: readonly AnyOperation[]) {
    super(core, MCP_PATH, (operation) => `The tool ${operation.name}`);
    this.#tools = tools;
    this.#facts = dataServerFacts(core.baseUrl);
    const place = (request: FastifyRequest) => this.errorPlace(request);
    // One provider per URI scheme: the apps' `ui://` views are one more, and so are the service's own REST
    // addresses, which prompts embed (docs/mcp.md, Resources).
    const resources = new ResourceProviders<Admission>(
      [new DataResources(core, place), new UiResources(core), new RestResources(core, operations, place)],
      core.cursors,
    );
    const prompts = new DataPrompts(core, place);
    this.methods = {
      'resources/templates/list': (admission, params) => resources.templatesResult(admission, params),
      'resources/list': (admission, params) => resources.listResult(admission, params),
      'resources/read': (admission, params, request) => resources.read(admission, params, request),
      'prompts/list': (admission, params) => prompts.listResult(admission, params),
      'prompts/get': (admission, params, request) => prompts.get(admission, params, request),
      'completion/complete': (admission, params) => completeResult(admission, params, prompts, resources),
    };
  }

  /** Counted against the key's plan when it is valid, else against the client address. */
  countRefused(request: FastifyRequest): Promise<Admission> {
    return this.core.admit(protectedResourceFacts(request, this.core.baseUrl));
  }

  facts(): ServerFacts {
    return this.#facts;
  }

  async listTools(admission: Admission): Promise<string> {
    return this.#tools.listResult(await this.core.callableOperations(admission.caller));
  }

  tool(_admission: Admission, name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  toolNames(): readonly string[] {
    return this.#tools.names;
  }

  async callTool(admission: Admission, tool: Tool, args: Json): Promise<MethodAnswer> {
    const { json, charge } = await this.core.execute({
      admission,
      operation: tool.operation,
      input: args,
      encoding: 'json',
      etag: false, // no conditional requests on MCP
      channel: 'mcp',
    });
    // The result is built inside the charge window: if building it fails, the call is refunded. An answer that
    // lists files (few, small) is built with their links each time.
    const { fileLinks } = tool.operation;
    const result = await buildCharged(charge, () =>
      fileLinks
        ? Buffer.from(successResultJson(json, tool.wrapsArray, fileLinks(JSON.parse(json))))
        : this.#results.get(json, tool.wrapsArray),
    );
    return { result, quota: charge.month };
  }
}
