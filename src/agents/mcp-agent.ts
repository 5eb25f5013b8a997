/**
 * Every company deployment as an MCP server (one object for the whole host: the deployment comes with the
 * caller). The protocol is the data service's (`channels/mcp/mcp-protocol.ts`); the tools are the deployment's
 * skills offered on MCP — its knowledge, its service area and, when it turns them on, the public procurement
 * lookups — each answering at once (no tasks on MCP).
 */
import type { FastifyRequest } from 'fastify';
import type { McpAgent, MethodAnswer } from '../channels/mcp/mcp-protocol.js';
import { type ServerFacts, serverFacts, serviceIcons } from '../channels/mcp/server-facts.js';
import { plainSchema } from '../core/json-schema.js';
import type { ErrorPlace } from '../lib/errors.js';
import type { Json } from '../lib/json.js';
import { type AgentCaller, admitAgentCaller, agentLimitHeaders } from './admission.js';
import type { Deployment } from './deployment.js';
import { checkCallable, type HostDeps, runSkill, validSkillInput } from './execute.js';
import type { AnySkill } from './skill.js';

interface DeploymentFacts {
  readonly server: ServerFacts;
  /** `tools/list` results: [full, licensed]. */
  readonly lists: readonly [string, string];
}

export class HostMcpServer implements McpAgent<AgentCaller, AnySkill> {
  readonly #deps: HostDeps;
  /** Derived once per deployment revision (a Deployment object is one revision). */
  readonly #facts = new WeakMap<Deployment, DeploymentFacts>();

  constructor(deps: HostDeps) {
    this.#deps = deps;
  }

  errorPlace(request: FastifyRequest): ErrorPlace {
    return { baseUrl: this.#deps.core.baseUrl, requestId: request.id, instance: request.url.split('?')[0] };
  }

  admit(request: FastifyRequest): Promise<AgentCaller> {
    return admitAgentCaller(this.#deps, request, 'mcp');
  }

  countRefused(request: FastifyRequest): Promise<AgentCaller> {
    return this.admit(request);
  }

  headers(caller: AgentCaller | undefined): Record<string, string> {
    return agentLimitHeaders(caller);
  }

  facts(caller: AgentCaller): ServerFacts {
    return this.#factsOf(caller.deployment).server;
  }

  async listTools(caller: AgentCaller): Promise<string> {
    return this.#factsOf(caller.deployment).lists[caller.credential.licensed ? 1 : 0];
  }

  tool(caller: AgentCaller, name: string): AnySkill | undefined {
    return caller.deployment.skill(name, 'mcp');
  }

  toolNames(caller: AgentCaller): readonly string[] {
    return caller.deployment.skillIds('mcp');
  }

  async callTool(caller: AgentCaller, skill: AnySkill, args: Json): Promise<MethodAnswer> {
    const { deployment, credential, reference } = caller;
    checkCallable(skill, credential.licensed);
    const input = validSkillInput(deployment, skill, args);
    const answer = await runSkill(this.#deps, { deployment, skill, input, credentialId: credential.id, reference });
    const json = JSON.stringify(answer.data);
    // The JSON as text for clients that read only content, then the readable summary.
    return {
      result:
        `{"content":[{"type":"text","text":${JSON.stringify(json)}},` +
        `{"type":"text","text":${JSON.stringify(answer.text)}}],"structuredContent":${json}}`,
    };
  }

  #factsOf(deployment: Deployment): DeploymentFacts {
    let facts = this.#facts.get(deployment);
    if (!facts) {
      const { spec } = deployment;
      const list = (licensed: boolean) =>
        JSON.stringify({
          tools: deployment.callable('mcp', licensed).map((skill) => toolDefinition(deployment, skill)),
        });
      facts = {
        server: serverFacts({
          serverInfo: {
            name: deployment.slug,
            title: spec.name,
            version: String(deployment.record.revision),
            description: spec.description,
            websiteUrl: spec.company.website ?? deployment.addresses.base,
            icons: serviceIcons(deployment.iconUrl),
          },
          instructions:
            `${spec.name}, the agent of ${spec.company.name}: ${spec.description} ` +
            'Each tool answers at once with structuredContent (and the same JSON as text, then a readable summary). ' +
            'A failed call returns isError with a problem document naming the bad argument.',
        }),
        lists: [list(false), list(true)],
      };
      this.#facts.set(deployment, facts);
    }
    return facts;
  }
}

function toolDefinition(deployment: Deployment, skill: AnySkill) {
  return {
    name: skill.id,
    title: skill.title,
    description: skill.description.replace(/ Answers (at once|with a task)( with a message)?\.$/, ''),
    inputSchema: plainSchema(deployment.inputSchema(skill)),
    annotations: {
      title: skill.title,
      readOnlyHint: skill.kind === 'read',
      destructiveHint: false,
      idempotentHint: skill.kind === 'read',
      openWorldHint: false,
    },
  };
}
