/**
 * `configuration.acceptedOutputModes` of SendMessage on the data agent (docs/a2a.md, Output modes), through the A2A
 * SDK client: the answer comes in a media type the client accepts — the JSON as a data part, or for a list skill its
 * CSV (the REST CSV, byte for byte) as a `text/csv` text part — and a skill that cannot answer in any accepted type
 * is refused with ContentTypeNotSupportedError (-32005), uncharged. Before, the modes were ignored: JSON always.
 */
import { AgentCard, Message, SendMessageRequest } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aClientAt, fetchVia } from './helpers/a2a-client.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let address: string;
let client: Client;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  address = await t.app.http.listen({ port: 0, host: '127.0.0.1' });
  const localFetch = fetchVia(address);
  client = await a2aClientAt(BASE_URL, localFetch);
  key = (await t.keyOnPlan('output_modes', { domains: ['indicators', 'signals', 'procurement'] })).key;
});
afterAll(() => t.close());

const auth = () => ({ serviceParameters: { Authorization: `Bearer ${key}` } });

function send(skill: string, input: Record<string, unknown>, acceptedOutputModes?: string[]) {
  return client.sendMessage(
    SendMessageRequest.fromJSON({
      message: {
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [{ data: { skill, input }, mediaType: 'application/json' }],
      },
      ...(acceptedOutputModes === undefined ? {} : { configuration: { acceptedOutputModes } }),
    }),
    auth(),
  );
}

async function answerPart(skill: string, input: Record<string, unknown>, modes?: string[]) {
  const message: any = Message.toJSON((await send(skill, input, modes)) as Message);
  expect(message.parts).toHaveLength(1);
  return { part: message.parts[0], metadata: message.metadata };
}

async function usedThisMonth(): Promise<number> {
  const { part } = await answerPart('me', {});
  return part.data.usage.requests_this_month;
}

describe('acceptedOutputModes', () => {
  it('answers a list skill as its REST CSV in a text/csv text part when the client accepts only text/csv', async () => {
    const rest = await t.get('/v1/signals?municipality=porto&limit=5', {
      key,
      headers: { accept: 'text/csv' },
    });
    expect(rest.status, rest.body).toBe(200);
    expect(rest.body.split('\n')[0]).toContain('id,');
    for (const modes of [['text/csv'], ['TEXT/CSV; charset=utf-8'], ['text/*'], ['image/png', 'text/csv']]) {
      const { part, metadata } = await answerPart('signals_list', { municipality: ['porto'], limit: 5 }, modes);
      expect(part, modes.join()).toEqual({ text: rest.body, mediaType: 'text/csv' });
      expect(metadata.rest).toBe('/v1/signals?municipality=porto&limit=5&format=csv');
    }
  });

  it('carries the page’s next_cursor and has_more in the metadata of a CSV answer, to page on', async () => {
    const json = (await t.get('/v1/signals?limit=2', { key })).json;
    expect(json.has_more).toBe(true);
    const first = await answerPart('signals_list', { limit: 2 }, ['text/csv']);
    expect(first.metadata).toMatchObject({ next_cursor: json.next_cursor, has_more: true });
    const next = await t.get(`/v1/signals?limit=2&cursor=${encodeURIComponent(json.next_cursor)}`, {
      key,
      headers: { accept: 'text/csv' },
    });
    const second = await answerPart('signals_list', { limit: 2, cursor: first.metadata.next_cursor }, ['text/csv']);
    expect(second.part).toEqual({ text: next.body, mediaType: 'text/csv' });
  });

  it('answers JSON in a data part when JSON is accepted (alone, first, by a wildcard) or none is named', async () => {
    const rest = await t.get('/v1/signals?limit=3', { key });
    for (const modes of [undefined, [], ['application/json'], ['text/csv', 'application/json'], ['*/*']]) {
      const { part } = await answerPart('signals_list', { limit: 3 }, modes);
      expect(part, JSON.stringify(modes)).toEqual({ data: rest.json, mediaType: 'application/json' });
    }
  });

  it('refuses with ContentTypeNotSupportedError, uncharged, when the skill answers in no accepted type', async () => {
    const before = await usedThisMonth();
    for (const [skill, input, modes] of [
      ['municipalities_get', { code: '1106' }, ['text/csv']],
      ['signals_list', { limit: 1 }, ['image/png']],
      ['signals_list', { limit: 1 }, ['text/plain']],
    ] as const) {
      const error: any = await send(skill, input, [...modes]).catch((e) => e);
      expect(error?.name, `${skill} ${modes}`).toBe('ContentTypeNotSupportedError');
      expect(error.message).toContain(`The skill ${skill} answers in application/json`);
      expect(error.data[0]).toMatchObject({ reason: 'CONTENT_TYPE_NOT_SUPPORTED', domain: 'a2a-protocol.org' });
    }
    expect(await usedThisMonth()).toBe(before);
  });

  it('lists each skill’s output modes on the card: CSV beside JSON for the list skills', async () => {
    const card: any = AgentCard.toJSON(await client.getAgentCard(auth()));
    const modes = (id: string) => card.skills.find((s: any) => s.id === id).outputModes;
    expect(modes('signals_list')).toEqual(['application/json', 'text/csv']);
    expect(modes('procurement_aggregate')).toEqual(['application/json', 'text/csv']);
    expect(modes('municipalities_get')).toEqual(['application/json']);
    expect(card.defaultOutputModes).toEqual(['application/json']);
  });
});
