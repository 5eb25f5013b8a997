/**
 * Resources, prompts and completions on `/mcp` (docs/mcp.md), through real clients of both eras: the SDK 1.x client
 * after `initialize` (2025-11-25) and the 2.x client pinned to 2026-07-28. A resource read is the REST answer (and
 * its CSV where REST has one), charged and scoped as the tool of the same operation; completions turn names into
 * codes; every prompt embeds the REST answers it needs. Store-reading: run on both stores.
 */
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from './helpers/mcp-tools.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let url: URL;
beforeAll(async () => {
  t = await startTestApp();
  url = new URL(await listen(t));
});
afterAll(() => t.close());

const ERAS = ['2025-11-25', '2026-07-28'] as const;
type Era = (typeof ERAS)[number];

/** What both SDKs' clients offer, as this test uses it. */
type McpClient = Pick<
  Client1,
  | 'listResourceTemplates'
  | 'listResources'
  | 'readResource'
  | 'complete'
  | 'listPrompts'
  | 'getPrompt'
  | 'callTool'
  | 'getServerCapabilities'
  | 'close'
>;

async function connect(era: Era, key = t.keys.premium): Promise<McpClient> {
  const requestInit = { headers: { Authorization: `Bearer ${key}` } };
  if (era === '2025-11-25') {
    const client = new Client1({ name: 'resources-test', version: '1.0.0' });
    await client.connect(new Transport1(url, { requestInit }));
    return client;
  }
  const client = new Client2(
    { name: 'resources-test', version: '2.0.0' },
    { versionNegotiation: { mode: { pin: era } } },
  );
  await client.connect(new Transport2(url, { requestInit }));
  return client as unknown as McpClient;
}

async function rest(path: string, accept = 'application/json'): Promise<string> {
  const res = await t.get(path, { key: t.keys.premium, headers: { accept } });
  expect(res.status, `${path}: ${res.body}`).toBe(200);
  return res.body;
}

/** Every page of resources/list, following nextCursor. */
async function allResources(client: McpClient) {
  const all: { uri: string; name: string }[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    all.push(...page.resources);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { all, pages };
}

async function usedThisMonth(client: McpClient): Promise<number> {
  const me = await client.callTool({ name: 'me', arguments: {} });
  return (me.structuredContent as { usage: { requests_this_month: number } }).usage.requests_this_month;
}

/** The resource of each template, and the REST path answering the same. */
const READS = [
  { uri: 'munidata://municipalities/1106', path: '/v1/municipalities/1106' },
  { uri: 'munidata://indicators/population', path: '/v1/indicators/population' },
  { uri: 'munidata://procurement/contracts/1', path: '/v1/procurement/contracts/1' },
  { uri: 'munidata://procurement/contracts/1/red-flags', path: '/v1/procurement/contracts/1/red-flags' },
  { uri: 'munidata://procurement/entities/500051070', path: '/v1/procurement/entities/500051070' },
  { uri: 'munidata://signals/1', path: '/v1/signals/1' },
  { uri: 'munidata://signal-cases/1', path: '/v1/signal-cases/1' },
];

describe.each(ERAS)('resources at %s', (era) => {
  let client: McpClient;
  beforeAll(async () => {
    client = await connect(era);
  });
  afterAll(() => client?.close());

  it('declares resources, prompts and completions', () => {
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {}, completions: {} });
  });

  it('lists a template for each kind of record', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual([
      'munidata://municipalities/{code}',
      'munidata://indicators/{key}',
      'munidata://indicators/{key}/series/{code}',
      'munidata://procurement/contracts/{id}',
      'munidata://procurement/contracts/{id}/red-flags',
      'munidata://procurement/ocds/records/{ocid}',
      'munidata://procurement/entities/{nif}',
      'munidata://signals/{signal_id}',
      'munidata://signal-cases/{case_id}',
    ]);
  });

  it('pages through every municipality and indicator', async () => {
    const { all, pages } = await allResources(client);
    const indicators = JSON.parse(await rest('/v1/indicators?limit=200')).items;
    expect(all.filter((r) => r.uri.startsWith('munidata://municipalities/'))).toHaveLength(308);
    expect(all.filter((r) => r.uri.startsWith('munidata://indicators/')).map((r) => r.uri)).toEqual(
      indicators.map((i: { key: string }) => `munidata://indicators/${i.key}`),
    );
    // The 1.x client returns one page a call; the 2.x client follows nextCursor itself.
    expect(pages).toBe(era === '2025-11-25' ? Math.ceil(all.length / 100) : 1);
    expect(all.find((r) => r.uri === 'munidata://municipalities/1106')?.name).toBe('Lisboa');
  });

  it.each(READS)('reads $uri as the REST answer', async ({ uri, path }) => {
    const { contents } = await client.readResource({ uri });
    expect(contents).toEqual([{ uri, mimeType: 'application/json', text: await rest(path) }]);
  });

  it('reads an OCDS record and a series (with its CSV) as REST answers them', async () => {
    const ocid = JSON.parse(await rest('/v1/procurement/ocds/releases?limit=1')).releases[0].ocid;
    const record = await client.readResource({ uri: `munidata://procurement/ocds/records/${ocid}` });
    expect(record.contents).toEqual([
      {
        uri: expect.any(String),
        mimeType: 'application/json',
        text: await rest(`/v1/procurement/ocds/records/${ocid}`),
      },
    ]);

    const uri = 'munidata://indicators/population/series/1106';
    const series = await client.readResource({ uri });
    const path = '/v1/indicators/population/series?municipality=1106&limit=200';
    expect(series.contents).toEqual([
      { uri, mimeType: 'application/json', text: await rest(path) },
      { uri, mimeType: 'text/csv', text: await rest(path, 'text/csv') },
    ]);
  });

  it('refuses a resource that does not exist with -32602 naming its URI', async () => {
    for (const uri of ['munidata://municipalities/9999', 'munidata://nothing/1', 'test://static-text']) {
      await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602, data: { uri } });
    }
  });

  it('completes names to codes, best first, at most 100', async () => {
    const values = async (ref: object, name: string, value: string) =>
      (await client.complete({ ref: ref as never, argument: { name, value } })).completion;
    const municipality = { type: 'ref/resource', uri: 'munidata://municipalities/{code}' };
    expect((await values(municipality, 'code', 'lisbao')).values[0]).toBe('1106');
    expect((await values(municipality, 'code', 'GUIMARAES')).values[0]).toBe('0308');
    const everyone = await values(municipality, 'code', '');
    expect(everyone).toMatchObject({ total: 308, hasMore: true });
    expect(everyone.values).toHaveLength(100);
    const series = { type: 'ref/resource', uri: 'munidata://indicators/{key}/series/{code}' };
    expect((await values(series, 'key', 'popul')).values).toContain('population');
    const entity = { type: 'ref/resource', uri: 'munidata://procurement/entities/{nif}' };
    expect((await values(entity, 'nif', 'municipio de lisboa')).values).toContain('500051070');
    const tenders = { type: 'ref/prompt', name: 'find_open_tenders' };
    const construction = (await values(tenders, 'cpv', 'construção')).values;
    expect(construction.length).toBeGreaterThan(0);
    expect(construction.every((code) => /^\d{8}$/.test(code))).toBe(true);
    expect(construction[0]).toMatch(/^45/);
    expect((await values(tenders, 'district', 'brag')).values[0]).toBe('Braga');
    const compare = { type: 'ref/prompt', name: 'compare_municipalities' };
    expect((await values(compare, 'municipalities', '1106,port')).values[0]).toBe('1106,1312');
  });

  it('offers four prompts in Portuguese and English, each embedding the REST answers it needs', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'profile_municipality',
      'compare_municipalities',
      'review_buyer_procurement',
      'find_open_tenders',
    ]);
    const profile = await client.getPrompt({
      name: 'profile_municipality',
      arguments: { municipality: 'lisboa', language: 'pt' },
    });
    expect(profile.messages[0].content).toMatchObject({ type: 'text', text: expect.stringContaining('município') });
    const embedded = profile.messages.slice(1).map((m) => m.content as { type: string; resource: any });
    expect(embedded.every((c) => c.type === 'resource')).toBe(true);
    expect(embedded[0].resource).toEqual({
      uri: 'munidata://municipalities/1106',
      mimeType: 'application/json',
      text: await rest('/v1/municipalities/1106'),
    });
    const council = embedded.find((c) => c.resource.uri === 'munidata://procurement/entities/500051070');
    expect(council?.resource.text).toBe(await rest('/v1/procurement/entities/500051070'));
    const medians = '/v1/indicators/unemployment_rate/medians?district=Lisboa';
    const median = embedded.find((c) => c.resource.uri === `${BASE_URL}${medians}`);
    expect(median?.resource.text).toBe(await rest(medians));

    const review = await client.getPrompt({
      name: 'review_buyer_procurement',
      arguments: { buyer: '500051070', from: '2024-01-01', to: '2024-12-31' },
    });
    expect(review.messages[0].content).toMatchObject({
      text: expect.stringContaining('from 2024-01-01 to 2024-12-31'),
    });
    const flags = review.messages.find((m) => (m.content as any).resource?.uri.includes('red-flags'));
    const flagsPath = '/v1/procurement/entities/500051070/red-flags?from=2024-01-01&to=2024-12-31';
    expect((flags?.content as any).resource).toEqual({
      uri: `${BASE_URL}${flagsPath}`,
      mimeType: 'application/json',
      text: await rest(flagsPath),
    });

    const tenders = await client.getPrompt({
      name: 'find_open_tenders',
      arguments: { cpv: '45000000', district: 'Porto' },
    });
    const announcements = (tenders.messages[1].content as any).resource;
    expect(announcements.uri).toBe(`${BASE_URL}/v1/procurement/announcements?cpv=45&district=Porto&open_only=true`);
    expect(announcements.text).toBe(await rest('/v1/procurement/announcements?cpv=45&district=Porto&open_only=true'));

    const compare = await client.getPrompt({
      name: 'compare_municipalities',
      arguments: { indicator: 'population', municipalities: 'lisboa, porto' },
    });
    expect(compare.messages.length).toBeGreaterThan(3);
  });

  it('reads back every REST address a prompt embeds, as REST answers it, with its CSV where REST has one', async () => {
    const review = await client.getPrompt({
      name: 'review_buyer_procurement',
      arguments: { buyer: '500051070', from: '2024-01-01', to: '2024-12-31' },
    });
    const tenders = await client.getPrompt({ name: 'find_open_tenders', arguments: { cpv: '45', district: 'Porto' } });
    const embedded = [...review.messages, ...tenders.messages].flatMap((m) => {
      const resource = (m.content as { resource?: { uri: string; text: string } }).resource;
      return resource?.uri.startsWith(`${BASE_URL}/v1/`) ? [resource] : [];
    });
    expect(embedded.length).toBeGreaterThanOrEqual(3);
    for (const { uri, text } of embedded) {
      const { contents } = await client.readResource({ uri });
      expect(contents[0], uri).toEqual({ uri, mimeType: 'application/json', text });
    }
    const path = '/v1/procurement/announcements?cpv=45&district=Porto&open_only=true';
    const { contents } = await client.readResource({ uri: `${BASE_URL}${path}` });
    expect(contents.map((c) => c.mimeType)).toEqual(['application/json', 'text/csv']);
    expect((contents[1] as { text: string }).text).toBe(await rest(path, 'text/csv'));
    // Not this server's, or no operation's path: not found. A parameter the operation does not take: its errors.
    for (const uri of ['https://example.org/v1/municipalities/1106', `${BASE_URL}/v1/nothing/here`, `${BASE_URL}/`]) {
      await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602, data: { uri } });
    }
    const misspelt = `${BASE_URL}/v1/procurement/announcements?distrct=Porto`;
    await expect(client.readResource({ uri: misspelt })).rejects.toMatchObject({
      code: -32602,
      data: { uri: misspelt, problem: { errors: [expect.objectContaining({ field: 'distrct' })] } },
    });
  });

  it('embeds each answer once, as its JSON alone', async () => {
    const profile = await client.getPrompt({ name: 'profile_municipality', arguments: { municipality: 'lisboa' } });
    const embedded = profile.messages.slice(1).map((m) => (m.content as any).resource);
    expect(embedded.map((r) => r.mimeType)).toEqual(embedded.map(() => 'application/json'));
    expect(new Set(embedded.map((r) => r.uri)).size).toBe(embedded.length);
    const signals = embedded.find((r) => r.uri.startsWith(`${BASE_URL}/v1/signals?`));
    expect(signals.text).toBe(await rest(signals.uri.slice(BASE_URL.length)));
  });

  it('names the places and the buyer it is about, in each language', async () => {
    const textOf = async (name: string, args: Record<string, string>) =>
      ((await client.getPrompt({ name, arguments: args })).messages[0].content as { text: string }).text;
    const braga = await textOf('profile_municipality', { municipality: '0303' });
    expect(braga).toContain('Write a profile of Braga, a Portuguese municipality in the district of Braga,');
    expect(braga).not.toContain('0303');
    expect(await textOf('profile_municipality', { municipality: 'porto', language: 'pt' })).toContain(
      'Porto, no distrito do Porto',
    );
    expect(await textOf('find_open_tenders', { cpv: '45', district: 'guarda', language: 'pt' })).toContain(
      'no distrito da Guarda',
    );
    expect(await textOf('find_open_tenders', { cpv: '45', district: 'porto' })).toContain('in the district of Porto');
    // A region by its short name, as every district parameter takes it.
    expect(await textOf('find_open_tenders', { cpv: '45', district: 'Madeira', language: 'pt' })).toContain(
      'na Região Autónoma da Madeira',
    );
    const compared = await textOf('compare_municipalities', {
      indicator: 'population',
      municipalities: 'lisboa, porto,Braga',
      language: 'pt',
    });
    const population = JSON.parse(await rest('/v1/indicators/population'));
    expect(compared).toContain(
      `Compara os municípios Lisboa, Porto e Braga no indicador ${population.name_pt} (population)`,
    );
    const name = JSON.parse(await rest('/v1/procurement/entities/500051070')).name;
    expect(await textOf('review_buyer_procurement', { buyer: '500051070' })).toContain(
      `the buyer ${name} (NIF 500051070) from`,
    );
  });

  it('embeds every page of a comparison, and says when a list it embeds is partial', async () => {
    const municipalities = JSON.parse(await rest('/v1/municipalities?limit=20')).items.map((m: any) => m.code);
    const compare = await client.getPrompt({
      name: 'compare_municipalities',
      arguments: { indicator: 'population', municipalities: municipalities.join(',') },
    });
    const pages = compare.messages
      .map((m) => (m.content as any).resource)
      .filter((r) => r?.uri.startsWith(`${BASE_URL}/v1/indicators/population/series?`));
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page.text).toBe(await rest(page.uri.slice(BASE_URL.length)));
    const points = pages.flatMap((page) => JSON.parse(page.text).items);
    expect(new Set(points.map((p: any) => p.municipality))).toEqual(new Set(municipalities));
    expect(JSON.parse(pages.at(-1).text).has_more).toBe(false);
    expect((compare.messages[0].content as any).text).not.toContain('more exist');

    const profile = await client.getPrompt({ name: 'profile_municipality', arguments: { municipality: 'lisboa' } });
    const signals = JSON.parse(
      profile.messages.map((m) => (m.content as any).resource).find((r) => r?.uri.includes('/v1/signals?')).text,
    );
    expect(signals).toMatchObject({ has_more: true, items: expect.any(Array) });
    expect((profile.messages[0].content as any).text).toContain(
      `the data below holds only the ${signals.items.length} newest signals; more exist`,
    );
    const pt = await client.getPrompt({
      name: 'profile_municipality',
      arguments: { municipality: 'lisboa', language: 'pt' },
    });
    expect((pt.messages[0].content as any).text).toContain(
      `os dados abaixo têm só os ${signals.items.length} sinais mais recentes; há mais`,
    );
  });

  it('refuses a prompt with a missing or unknown argument with -32602', async () => {
    await expect(client.getPrompt({ name: 'profile_municipality', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(
      client.getPrompt({ name: 'profile_municipality', arguments: { municipality: 'atlantis' } }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('atlantis') });
    await expect(client.getPrompt({ name: 'no_such_prompt' })).rejects.toMatchObject({ code: -32602 });
    // A reason that is a sentence already ends once: "…is required: Code, slug or name.", never "name..".
    for (const args of [{}, { municipality: 'atlantis' }] as Record<string, string>[]) {
      const refused = await client.getPrompt({ name: 'profile_municipality', arguments: args }).catch((e) => e);
      expect(refused.message).toMatch(/[^.]\.$/);
    }
  });
});

describe('counting prompts', () => {
  const PROMPT_DOMAINS = ['indicators', 'procurement', 'signals'];

  it('charges a prompt once per answer it embeds, and nothing for a refused argument', async () => {
    const { key } = await t.keyOnPlan('prompt_counting', { domains: PROMPT_DOMAINS });
    const client = await connect('2025-11-25', key);
    try {
      const refused = async (name: string, args: Record<string, string>, why: RegExp) => {
        await expect(client.getPrompt({ name, arguments: args })).rejects.toMatchObject({
          code: -32602,
          message: expect.stringMatching(why),
        });
        expect(await usedThisMonth(client)).toBe(0);
      };
      const codes = JSON.parse(await rest('/v1/municipalities?limit=51')).items.map((m: any) => m.code);
      await refused('profile_municipality', { municipality: 'braga', indicators: 'population,nope' }, /nope/);
      await refused('review_buyer_procurement', { buyer: '506901173', from: '2024-02-30' }, /from.*2024-02-30/);
      await refused('review_buyer_procurement', { buyer: '506901173', from: '2024-03-01', to: '2024-02-01' }, /after/);
      await refused('compare_municipalities', { indicator: 'population', municipalities: codes.join(',') }, /51/);
      await refused('compare_municipalities', { indicator: 'population', municipalities: 'braga, Braga' }, /2 to 50/);
      await refused('find_open_tenders', { cpv: '45', district: 'Atlantis' }, /Atlantis/);

      const profile = await client.getPrompt({ name: 'profile_municipality', arguments: { municipality: 'braga' } });
      expect(await usedThisMonth(client)).toBe(profile.messages.length - 1);
    } finally {
      await client.close();
    }
  });

  it('gives back every read of a prompt that fails midway', async () => {
    // Four requests a month: the profile's fifth read is refused, after four were made.
    const { key } = await t.keyOnPlan('prompt_midway', { domains: PROMPT_DOMAINS, requests_per_month: 4 });
    const client = await connect('2025-11-25', key);
    try {
      await expect(
        client.getPrompt({ name: 'profile_municipality', arguments: { municipality: 'braga' } }),
      ).rejects.toMatchObject({ code: -31000, data: { problem: { status: 402 } } });
      expect(await usedThisMonth(client)).toBe(0);
      await client.readResource({ uri: 'munidata://municipalities/0303' });
      expect(await usedThisMonth(client)).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('embeds at most ten pages of a series, and says the rest is left out', async () => {
    const { key } = await t.keyOnPlan('prompt_pages', { domains: PROMPT_DOMAINS });
    const client = await connect('2026-07-28', key);
    try {
      const codes = JSON.parse(await rest('/v1/municipalities?limit=50')).items.map((m: any) => m.code);
      const compare = await client.getPrompt({
        name: 'compare_municipalities',
        arguments: { indicator: 'registered_unemployed', municipalities: codes.join(',') },
      });
      const pages = compare.messages
        .map((m) => (m.content as any).resource)
        .filter((r) => r?.uri.includes('/series?'))
        .map((r) => JSON.parse(r.text));
      expect(pages).toHaveLength(10);
      expect(pages.at(-1).has_more).toBe(true);
      const points = pages.reduce((n, page) => n + page.items.length, 0);
      expect((compare.messages[0].content as any).text).toContain(
        `the data below holds only the first ${points} points of the series`,
      );
      expect(await usedThisMonth(client)).toBe(compare.messages.length - 1);
    } finally {
      await client.close();
    }
  });
});

describe('counting and scopes', () => {
  it('charges a read once, as the tool call; lists, completions and failed reads are free', async () => {
    t.clock.advance(61_000);
    const client = await connect('2025-11-25', t.keys.indicatorsOnly);
    try {
      const before = await usedThisMonth(client);
      await client.listResourceTemplates();
      await client.listResources();
      await client.listPrompts();
      await client.complete({
        ref: { type: 'ref/resource', uri: 'munidata://municipalities/{code}' },
        argument: { name: 'code', value: 'porto' },
      });
      await expect(client.readResource({ uri: 'munidata://municipalities/9999' })).rejects.toThrow();
      expect(await usedThisMonth(client)).toBe(before);
      await client.readResource({ uri: 'munidata://municipalities/1106' });
      expect(await usedThisMonth(client)).toBe(before + 1);
      await client.readResource({ uri: 'munidata://indicators/population/series/1106' });
      expect(await usedThisMonth(client)).toBe(before + 2);
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)('hides and refuses what the key may not read, at %s', async (era) => {
    const client = await connect(era, t.keys.signalsOnlyScope);
    try {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((r) => r.name)).toEqual(['signal', 'signal_case']);
      expect((await allResources(client)).all).toEqual([]);
      expect((await client.listPrompts()).prompts).toEqual([]);
      await expect(client.readResource({ uri: 'munidata://municipalities/1106' })).rejects.toMatchObject({
        code: -31000,
        data: {
          uri: 'munidata://municipalities/1106',
          problem: { type: `${BASE_URL}/problems/insufficient-scope`, status: 403, feature_key: 'indicators:read' },
        },
      });
      const { completion } = await client.complete({
        ref: { type: 'ref/resource', uri: 'munidata://procurement/entities/{nif}' },
        argument: { name: 'nif', value: 'municipio de lisboa' },
      });
      expect(completion.values).toEqual([]);
      const signal = await client.readResource({ uri: 'munidata://signals/1' });
      const answer = await t.get('/v1/signals/1', { key: t.keys.signalsOnlyScope });
      expect(signal.contents).toEqual([
        { uri: 'munidata://signals/1', mimeType: 'application/json', text: answer.body },
      ]);
    } finally {
      await client.close();
    }
  });
});
