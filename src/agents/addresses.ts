/** Where a deployment answers: `{agents_url}/<slug>/…`. */
import { A2A_PATH, AGENT_CARD_PATH } from '../channels/a2a/card.js';
import { MCP_PATH } from '../channels/mcp/server-facts.js';

export interface AgentAddresses {
  readonly base: string;
  readonly card: string;
  readonly a2a: string;
  readonly mcp: string;
}

export function agentAddresses(agentsUrl: string, slug: string): AgentAddresses {
  const base = `${agentsUrl}/${slug}`;
  return { base, card: `${base}${AGENT_CARD_PATH}`, a2a: `${base}${A2A_PATH}`, mcp: `${base}${MCP_PATH}` };
}

/** The path the host's routes are mounted under: the path of `{agents_url}` ('' at the root of its host). */
export function agentsMountPath(agentsUrl: string): string {
  return new URL(agentsUrl).pathname.replace(/\/+$/, '');
}
