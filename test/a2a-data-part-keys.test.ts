/**
 * The keys of a SendMessage data part (docs/a2a.md, Calling a skill): `skill` and `input`, nothing else. A misspelt
 * `input` ran the skill on its defaults and a parameter set beside `input` was dropped, in silence; both are now
 * refused as REST refuses an unknown parameter (-32602 naming the key, with a guess), on the data agent and on a
 * company agent (they read messages alike), through the A2A SDK client.
 */
import { SendMessageRequest } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aClientAt } from './helpers/a2a-client.js';
import { type AgentHostApp, a2aClient, bearer, localFetch, SLUGS, startAgentHost } from './helpers/agents.js';
import { unlimitedKey } from './helpers/mcp-tools.js';
import { BASE_URL } from './helpers/test-app.js';

let host: AgentHostApp;
let dataKey: string;
const clients: Record<string, Client> = {};
const slug = SLUGS[0];

beforeAll(async () => {
  host = await startAgentHost();
  dataKey = await unlimitedKey(host, 'data_part_keys');
  const fetchImpl = localFetch(host);
  clients.data = await a2aClientAt(BASE_URL, fetchImpl);
  clients[slug] = await a2aClient(host, slug);
});
afterAll(() => host.close());

function withData(data: Record<string, unknown>) {
  return SendMessageRequest.fromJSON({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ data, mediaType: 'application/json' }] },
  });
}

const AGENTS = [
  { name: 'the data agent', client: () => clients.data, secret: () => dataKey, skill: 'signals_list' },
  {
    name: `the company agent ${slug}`,
    client: () => clients[slug],
    secret: () => host.credentials[slug].a2a,
    skill: 'check_service_area',
  },
];

describe.each(AGENTS)('$name', ({ client, secret, skill }) => {
  async function refusal(data: Record<string, unknown>) {
    host.clock.advance(1_000);
    const error: any = await client()
      .sendMessage(withData(data), bearer(secret()))
      .catch((e) => e);
    expect(error?.envelopeCode, JSON.stringify(error)).toBe(-32602);
    const badRequest = error.data.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest');
    return { message: String(error.message), violations: badRequest?.fieldViolations ?? [] };
  }

  it('refuses a misspelt `input` with a guess, instead of running the skill on its defaults', async () => {
    const { message, violations } = await refusal({ skill, inptu: { limit: 1 } });
    expect(violations).toEqual([
      { field: 'message.parts[0].data.inptu', description: 'is not a key of the data part; did you mean `input`?' },
    ]);
    expect(message).toContain('did you mean `input`?');
  });

  it('refuses a parameter set beside `input`, saying parameters go inside it', async () => {
    const { violations } = await refusal({ skill, input: {}, type: 'tender_open' });
    expect(violations).toHaveLength(1);
    expect(violations[0].field).toBe('message.parts[0].data.type');
    expect(violations[0].description).toMatch(/holds `skill` and `input` alone: the skill's parameters go inside/);
  });

  it('still takes a data part of `skill` and `input`, and `skill` alone', async () => {
    host.clock.advance(1_000);
    const input = skill === 'signals_list' ? { limit: 1 } : { municipality: 'porto' };
    for (const data of [{ skill, input }, ...(skill === 'signals_list' ? [{ skill }] : [])]) {
      const answer: any = await client().sendMessage(withData(data), bearer(secret()));
      expect(answer.messageId ?? answer.id, JSON.stringify(data)).toBeTruthy();
    }
  });
});
