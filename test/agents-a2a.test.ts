/**
 * The company-agent host through the A2A SDK client (@a2a-js/sdk), against both demo deployments: the card and
 * its input schemas, every skill (messages at once, tasks polled with GetTask to a final state), actions quoted and
 * committed twice, expired and unknown quotes, licensed versus full credentials, ListTasks and CancelTask.
 */
import { CancelTaskRequest, GetTaskRequest, ListTasksRequest, Message, Task } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_DEPLOYMENTS } from '../src/agents/demo/demo-agents.js';
import { SKILL_IDS } from '../src/agents/skills/ids.js';
import { INPUT_SCHEMAS_EXTENSION_URI } from '../src/channels/a2a/card.js';
import {
  AGENTS_URL,
  type AgentHostApp,
  a2aClient,
  bearer,
  cardJson,
  localFetch,
  SLUGS,
  skillRequest,
  startAgentHost,
} from './helpers/agents.js';
import { BASE_URL } from './helpers/test-app.js';

let host: AgentHostApp;
const clients: Record<string, Client> = {};
beforeAll(async () => {
  host = await startAgentHost();
  for (const slug of SLUGS) clients[slug] = await a2aClient(host, slug);
});
afterAll(() => host.close());
// The clock is the test's: every request moves it a second (the credential's limit is 60 a minute) and every test
// starts a minute later, so that these tests never meet the limits (test/agents-access.test.ts does).
beforeEach(() => host.clock.advance(61_000));

/** Where the demo deployments work (a place inside the service area) and a project each takes. */
const FACTS: Record<
  string,
  {
    inside: string;
    outside: string;
    excluded?: string;
    project: Record<string, unknown>;
    action: Record<string, unknown>;
  }
> = {
  'sol-do-norte': {
    inside: 'Braga',
    outside: 'Faro',
    excluded: 'Vila Nova de Gaia',
    project: { project_type: 'residential_solar', municipality: 'porto', area_m2: 60 },
    action: { action: 'installation_proposal', municipality: 'Matosinhos', area_m2: 80 },
  },
  'atlas-engenharia': {
    inside: 'Setúbal',
    outside: 'Bragança',
    project: { project_type: 'structural_assessment', municipality: 'lisboa', area_m2: 800 },
    action: { action: 'site_visit', municipality: 'Almada', urgent: true },
  },
};

async function send(
  slug: string,
  skill: string,
  input: Record<string, unknown>,
  secret = host.credentials[slug].a2a,
  configuration?: object,
) {
  host.clock.advance(1_000);
  return clients[slug].sendMessage(
    skillRequest(skill, input, configuration as Record<string, unknown>),
    bearer(secret),
  );
}

async function message(slug: string, skill: string, input: Record<string, unknown>): Promise<any> {
  const result = await send(slug, skill, input);
  expect('messageId' in result, `${skill} answers with a message`).toBe(true);
  return Message.toJSON(result as Message);
}

/** Sends with returnImmediately, then polls GetTask until the state is final. */
async function task(
  slug: string,
  skill: string,
  input: Record<string, unknown>,
  secret = host.credentials[slug].a2a,
): Promise<any> {
  const result = await send(slug, skill, input, secret, { returnImmediately: true });
  expect('status' in result, `${skill} answers with a task`).toBe(true);
  const first = Task.toJSON(result as Task) as any;
  expect(first.status.state).toMatch(/^TASK_STATE_(SUBMITTED|WORKING|COMPLETED|REJECTED|FAILED)$/);
  for (let i = 0; i < 200; i++) {
    host.clock.advance(1_000);
    const current = Task.toJSON(
      await clients[slug].getTask(GetTaskRequest.fromJSON({ id: first.id }), bearer(secret)),
    ) as any;
    if (
      ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_REJECTED', 'TASK_STATE_CANCELED'].includes(
        current.status.state,
      )
    )
      return current;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${first.id} never ended`);
}

function answerOf(completed: any): { data: any; text: string } {
  expect(completed.status.state, JSON.stringify(completed.status)).toBe('TASK_STATE_COMPLETED');
  const parts = completed.artifacts[0].parts;
  return {
    data: parts.find((p: any) => p.data !== undefined).data,
    text: parts.find((p: any) => p.text !== undefined).text,
  };
}

function rejection(ended: any): { reason: string; detail: string } {
  expect(ended.status.state).toBe('TASK_STATE_REJECTED');
  return ended.status.message.parts.find((p: any) => p.data !== undefined).data;
}

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('missing');
  return value;
}

/** Every citation in an answer: objects with `rest` (and `source`). */
function citations(value: unknown): { source: string | null; rest: string }[] {
  if (Array.isArray(value)) return value.flatMap(citations);
  if (value === null || typeof value !== 'object') return [];
  const object = value as Record<string, unknown>;
  return [
    ...(object.citation ? [object.citation as { source: string | null; rest: string }] : []),
    ...Object.values(object).flatMap(citations),
  ];
}

describe.each(SLUGS)('deployment %s', (slug) => {
  const spec = must(DEMO_DEPLOYMENTS.find((d) => d.slug === slug));
  const facts = FACTS[slug];

  it('serves its card: every enabled skill with its input schema, the A2A endpoint, public', async () => {
    const card = cardJson(
      await new DefaultAgentCardResolver({ fetchImpl: localFetch(host) }).resolve(`${AGENTS_URL}/${slug}/`),
    );
    expect(card.name).toBe(spec.name);
    expect(card.supportedInterfaces[0]).toEqual({
      url: `${AGENTS_URL}/${slug}/a2a`,
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
    });
    const ids = card.skills.map((s: any) => s.id);
    expect(ids).toEqual(SKILL_IDS.filter((id) => spec.skills.includes(id)));
    const extension = card.capabilities.extensions[0];
    expect(extension.uri).toBe(INPUT_SCHEMAS_EXTENSION_URI);
    expect(Object.keys(extension.params.inputSchemas)).toEqual(ids);
    for (const id of ids) expect(extension.params.inputSchemas[id].type).toBe('object');
    expect(extension.params.inputSchemas.assess_project_fit.properties).toMatchObject({
      project_type: { type: 'string' },
      municipality: { type: 'string' },
      area_m2: { type: 'number' },
    });
    // Only released briefs can be asked for, and only the deployment's own actions quoted.
    expect(extension.params.inputSchemas.get_artifact.properties.artifact_id.enum).toEqual(
      spec.artifacts.filter((a) => a.released).map((a) => a.id),
    );
    expect(extension.params.inputSchemas.prepare_action.properties.action.enum).toEqual(spec.actions.map((a) => a.id));
    for (const skill of card.skills) {
      for (const example of skill.examples) expect(JSON.parse(example).skill).toBe(skill.id);
    }
  });

  it('a 1.0 client reading the card served without A2A-Version (as the TCK) finds the 1.0 interface', async () => {
    const fetchImpl = localFetch(host);
    const withoutVersion: typeof fetch = (input, init) => fetchImpl(input, { ...init, headers: {} });
    const reader = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl: withoutVersion }),
      }),
    ).createFromUrl(`${AGENTS_URL}/${slug}/`);
    host.clock.advance(1_000);
    const answer = Message.toJSON(
      (await reader.sendMessage(
        skillRequest('check_service_area', { municipality: facts.inside }),
        bearer(host.credentials[slug].a2a),
      )) as Message,
    ) as any;
    expect(answer.parts[0].data).toMatchObject({ inside: true });
    const legacy = await (await withoutVersion(`${AGENTS_URL}/${slug}/.well-known/agent-card.json`)).json();
    const endpoint = `${AGENTS_URL}/${slug}/a2a`;
    expect(legacy).toMatchObject({ protocolVersion: '1.0', url: endpoint, preferredTransport: 'JSONRPC' });
  });

  it('check_service_area: a message, inside or not, and why', async () => {
    const inside = await message(slug, 'check_service_area', { municipality: facts.inside });
    expect(inside.role).toBe('ROLE_AGENT');
    expect(inside.parts[0].data).toMatchObject({ inside: true, reason: expect.stringMatching(/_listed$/) });
    expect(inside.parts[1].text).toMatch(/inside the service area/);
    const outside = await message(slug, 'check_service_area', { municipality: facts.outside });
    expect(outside.parts[0].data).toMatchObject({ inside: false, reason: 'outside' });
    if (facts.excluded) {
      const excluded = await message(slug, 'check_service_area', { municipality: facts.excluded });
      expect(excluded.parts[0].data).toMatchObject({ inside: false, reason: 'excluded' });
    }
  });

  it('search_knowledge: documents matching every word, best first', async () => {
    const word = spec.knowledge[0].title.split(' ')[0];
    const answer = await message(slug, 'search_knowledge', { q: word });
    expect(answer.parts[0].data.items[0].id).toBe(spec.knowledge[0].id);
    expect((await message(slug, 'search_knowledge', { q: 'zzzz nothing' })).parts[0].data.total).toBe(0);
  });

  const assessProjectFitTask =
    'assess_project_fit: a task with a typed verdict — fit, partial, no_fit — and one reason per criterion';
  it(assessProjectFitTask, async () => {
    const fit = answerOf(await task(slug, 'assess_project_fit', facts.project));
    expect(fit.data.verdict).toBe('fit');
    expect(fit.data.reasons.map((r: any) => r.criterion)).toEqual([
      'project_type',
      'service_area',
      'area_m2',
      'lead_time',
    ]);
    expect(fit.text).toMatch(/^Verdict: fit\./);

    const partial = answerOf(await task(slug, 'assess_project_fit', { ...facts.project, area_m2: 1_000_000 }));
    expect(partial.data.verdict).toBe('partial');
    expect(partial.data.reasons.find((r: any) => r.criterion === 'area_m2').outcome).toBe('not_met');

    const soon = answerOf(
      await task(slug, 'assess_project_fit', {
        ...facts.project,
        start_by: new Date(host.clock.now).toISOString().slice(0, 10),
      }),
    );
    expect(soon.data.verdict).toBe('partial');
    expect(soon.data.reasons.find((r: any) => r.criterion === 'lead_time').outcome).toBe('not_met');

    const noFit = answerOf(await task(slug, 'assess_project_fit', { ...facts.project, project_type: 'nuclear_plant' }));
    expect(noFit.data.verdict).toBe('no_fit');
    const away = answerOf(await task(slug, 'assess_project_fit', { ...facts.project, municipality: facts.outside }));
    expect(away.data.verdict).toBe('no_fit');
  });

  it('procurement_research_buyer: profile and contracts of one buyer in a period, every figure cited', async () => {
    const { data, text } = answerOf(
      await task(slug, 'procurement_research_buyer', { buyer: 'Município de Lisboa', from: '2020-01-01' }),
    );
    expect(data.buyer).toMatchObject({ nif: '500051070', kind: 'municipality', nif_kind: 'portuguese' });
    // Every party says what its tax number is, as the REST contract does (a placeholder is no one's number).
    const parties = [...data.top_suppliers, ...data.latest_contracts.flatMap((c: any) => c.suppliers)];
    for (const p of parties) {
      expect(['portuguese', 'foreign', 'placeholder', null]).toContain(p.nif_kind);
      expect(p).toHaveProperty('kind_assumed');
      expect(p).toHaveProperty('note');
    }
    expect(data.totals.contracts).toBeGreaterThan(0);
    expect(data.latest_contracts.length).toBeGreaterThan(0);
    const cited = citations(data);
    expect(cited.length).toBeGreaterThanOrEqual(
      2 + data.by_year.length + data.top_suppliers.length + data.latest_contracts.length,
    );
    for (const contract of data.latest_contracts) {
      expect(contract.citation.rest).toBe(`${BASE_URL}/v1/procurement/contracts/${contract.id}`);
      expect(contract.citation.source).toMatch(/^https?:\/\//);
    }
    // The totals are the sum of the list their citation names: the REST route gives the same contracts.
    expect(data.totals.citation.rest).toBe(
      `${BASE_URL}/v1/procurement/contracts?buyer=500051070&from=2020-01-01&to=${data.period.to}`,
    );
    expect(data.by_year.reduce((n: number, y: any) => n + y.contracts, 0)).toBe(data.totals.contracts);
    expect(text).toMatch(/Município de Lisboa \(500051070\)/);
  });

  const compareContractsSkill =
    'procurement_compare_contractsers: municipalities on one dimension and year, or two tax numbers side by side';
  it(compareContractsSkill, async () => {
    const year = new Date(host.clock.now).getUTCFullYear() - 1;
    const ranked = answerOf(
      await task(slug, 'procurement_compare_contractsers', {
        municipalities: ['lisboa', 'porto', 'braga'],
        dimension: 'eur_per_capita',
        year,
      }),
    );
    expect(ranked.data.ranking.map((r: any) => r.rank)).toEqual([1, 2, 3]);
    const values = ranked.data.ranking.map((r: any) => r.value);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    for (const row of ranked.data.ranking) {
      expect(row.citation.rest).toBe(
        `${BASE_URL}/v1/procurement/contracts?municipality=${row.municipality.code}` +
          `&from=${year}-01-01&to=${year}-12-31`,
      );
    }
    const sides = answerOf(await task(slug, 'procurement_compare_contractsers', { nifs: ['500051070', '501306099'] }));
    expect(sides.data.parties.map((p: any) => p.nif)).toEqual(['500051070', '501306099']);
    for (const party of sides.data.parties) {
      expect(party.as_buyer.citation.rest).toContain(`buyer=${party.nif}`);
      expect(party).toMatchObject({ nif_kind: 'portuguese', kind_assumed: false, note: null });
    }

    const neither = rejection(await task(slug, 'procurement_compare_contractsers', { dimension: 'contracts' }));
    expect(neither.reason).toBe('VALIDATION_ERROR');
    // Lisboa's number with its last digit changed is a mistyped number, as the data API says, not an unknown one.
    const mistyped = rejection(
      await task(slug, 'procurement_compare_contractsers', { nifs: ['500051070', '501306098'] }),
    );
    expect(mistyped.reason).toBe('VALIDATION_ERROR');
    expect(mistyped.detail).toBe(
      'nifs[1]: fails the check digit (the ninth, computed from the first eight): check the number',
    );
  });

  it('procurement_track_opportunities: open notices, soonest closing first, each cited', async () => {
    const { data } = answerOf(await task(slug, 'procurement_track_opportunities', { limit: 50 }));
    expect(data.notices.length).toBeGreaterThan(0);
    const deadlines = data.notices.map((n: any) => n.deadline_on);
    expect(deadlines).toEqual([...deadlines].sort());
    for (const notice of data.notices) {
      expect(notice.deadline_on >= data.as_of).toBe(true);
      expect(notice.citation.rest).toMatch(/\/v1\/procurement\/announcements\?district=.+&open_only=true$/);
    }
    const construction = answerOf(
      await task(slug, 'procurement_track_opportunities', { district: 'Lisboa', cpv: '45' }),
    );
    for (const notice of construction.data.notices)
      expect(notice.cpv.some((c: string) => c.startsWith('45'))).toBe(true);
    // A region by its short name is the region (docs/api.md, Series and snapshots).
    const region = answerOf(await task(slug, 'procurement_track_opportunities', { district: 'Madeira' }));
    expect(region.data.districts).toEqual(['Região Autónoma da Madeira']);
  });

  it('prepare_action then commit_action: a quote, committed once, the same outcome on a second commit', async () => {
    const quote = answerOf(await task(slug, 'prepare_action', facts.action)).data;
    expect(quote).toMatchObject({
      action: facts.action.action,
      currency: 'EUR',
      quote_id: expect.stringMatching(/^q_/),
    });
    expect(quote.total_eur).toBeCloseTo(quote.price_eur + quote.vat_eur, 2);
    expect(Date.parse(quote.valid_until)).toBeGreaterThan(host.clock.now);
    const first = answerOf(await task(slug, 'commit_action', { quote_id: quote.quote_id }));
    const second = answerOf(await task(slug, 'commit_action', { quote_id: quote.quote_id }));
    expect(first.data).toMatchObject({ status: 'committed', quote_id: quote.quote_id });
    expect(second.data).toEqual(first.data);
    committed[slug] = { quoteId: quote.quote_id, outcome: first.data };
  });

  it('rejects an unknown quote, and a quote of another credential', async () => {
    expect(rejection(await task(slug, 'commit_action', { quote_id: 'q_made-up' })).detail).toMatch(/Unknown quote/);
    const other = must(SLUGS.find((s) => s !== slug));
    const foreign = answerOf(await task(other, 'prepare_action', FACTS[other].action)).data;
    expect(rejection(await task(slug, 'commit_action', { quote_id: foreign.quote_id })).detail).toMatch(
      /Unknown quote/,
    );
  });

  it('get_artifact: a released brief as a reference (a URL part), its body served there', async () => {
    const released = must(spec.artifacts.find((a) => a.released));
    const answer = await message(slug, 'get_artifact', { artifact_id: released.id });
    const url = answer.parts.find((p: any) => p.url !== undefined);
    expect(url).toMatchObject({
      url: `${AGENTS_URL}/${slug}/artifacts/${released.id}`,
      mediaType: released.media_type,
    });
    expect(answer.parts.find((p: any) => p.data !== undefined).data).toMatchObject({
      id: released.id,
      title: released.title,
    });
    const res = await fetch(url.url.replace(BASE_URL, host.address));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(released.body);
    const unreleased = must(spec.artifacts.find((a) => !a.released));
    expect((await fetch(`${host.address}/agents/${slug}/artifacts/${unreleased.id}`)).status).toBe(404);
    const error: any = await send(slug, 'get_artifact', { artifact_id: unreleased.id }).catch((e) => e);
    expect(error.data[0].reason).toBe('VALIDATION_ERROR');
  });

  it('honours acceptedOutputModes: the accepted parts only; none of its modes: -32005, no task', async () => {
    const secret = host.credentials[slug].a2a;
    const card = cardJson(await clients[slug].getAgentCard(bearer(secret)));
    const modes = (id: string) => card.skills.find((s: any) => s.id === id).outputModes;
    const brief = must(spec.artifacts.find((a) => a.released));
    expect(modes('check_service_area')).toEqual(['application/json', 'text/plain']);
    expect(modes('assess_project_fit')).toEqual(['application/json', 'text/plain']);
    expect(modes('get_artifact')).toEqual([...new Set(['application/json', 'text/plain', brief.media_type])]);

    const area = { municipality: facts.inside };
    const answer = async (skill: string, input: Record<string, unknown>, acceptedOutputModes: string[]) => {
      const result = await send(slug, skill, input, secret, { acceptedOutputModes });
      const json: any = 'messageId' in result ? Message.toJSON(result as Message) : Task.toJSON(result as Task);
      return (json.parts ?? json.artifacts[0].parts).map((p: any) => p.mediaType);
    };
    expect(await answer('check_service_area', area, [])).toEqual(['application/json', 'text/plain']);
    expect(await answer('check_service_area', area, ['*/*'])).toEqual(['application/json', 'text/plain']);
    expect(await answer('check_service_area', area, ['application/json'])).toEqual(['application/json']);
    expect(await answer('check_service_area', area, ['TEXT/*; q=1', 'image/png'])).toEqual(['text/plain']);
    expect(await answer('assess_project_fit', facts.project, ['application/json'])).toEqual(['application/json']);
    expect(await answer('assess_project_fit', facts.project, ['text/plain'])).toEqual(['text/plain']);
    const only = await answer('get_artifact', { artifact_id: brief.id }, [brief.media_type]);
    expect(only).toEqual(brief.media_type === 'text/plain' ? ['text/plain', 'text/plain'] : [brief.media_type]);

    // A task keeps what its caller accepted: read later with GetTask or ListTasks, its artifact gives the same parts.
    const sent = Task.toJSON(
      (await send(slug, 'assess_project_fit', facts.project, secret, {
        acceptedOutputModes: ['text/plain'],
        returnImmediately: true,
      })) as Task,
    ) as any;
    let read: any;
    for (let i = 0; i < 200 && read?.status.state !== 'TASK_STATE_COMPLETED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      read = Task.toJSON(await clients[slug].getTask(GetTaskRequest.fromJSON({ id: sent.id }), bearer(secret)));
    }
    expect(read.artifacts[0].parts.map((p: any) => p.mediaType)).toEqual(['text/plain']);
    const listed = await clients[slug].listTasks(ListTasksRequest.fromJSON({ includeArtifacts: true }), bearer(secret));
    const same: any = Task.toJSON(must(listed.tasks.find((task) => task.id === sent.id)));
    expect(same.artifacts[0].parts.map((p: any) => p.mediaType)).toEqual(['text/plain']);

    const tasks = async () => (await clients[slug].listTasks(ListTasksRequest.fromJSON({}), bearer(secret))).totalSize;
    const before = await tasks();
    for (const [skill, input] of [
      ['check_service_area', area],
      ['assess_project_fit', facts.project],
    ] as const) {
      for (const accepted of [['image/png'], ['text/csv']]) {
        const error: any = await send(slug, skill, input, secret, { acceptedOutputModes: accepted }).catch((e) => e);
        expect(error?.name, `${skill} ${accepted}`).toBe('ContentTypeNotSupportedError');
        expect(error.message).toContain(`The skill ${skill} answers in application/json or text/plain`);
        expect(error.data[0]).toMatchObject({ reason: 'CONTENT_TYPE_NOT_SUPPORTED' });
      }
    }
    expect(await tasks()).toBe(before);
  });

  it('a blocking SendMessage (the SDK default) answers with the task in its final state', async () => {
    const result = Task.toJSON((await send(slug, 'assess_project_fit', facts.project)) as Task) as any;
    expect(result.status.state).toBe('TASK_STATE_COMPLETED');
    expect(result.history[0].parts[0].data).toEqual({ skill: 'assess_project_fit', input: facts.project });
  });

  it('refuses invalid input at once (-32602 naming the field), before any task is created', async () => {
    const error: any = await send(slug, 'assess_project_fit', {
      project_type: 'x',
      municipality: 'porto',
      area_m2: 'big',
    }).catch((e) => e);
    expect(error.data[0].reason).toBe('VALIDATION_ERROR');
    expect(error.data[1].errors).toEqual([{ field: 'area_m2', message: 'must be a number' }]);
    const unknown: any = await send(slug, 'no_such_skill', {}).catch((e) => e);
    expect(unknown.data[1].errors[0].field).toBe('message.parts[0].data.skill');
  });
});

/** Quotes committed by the tests above, checked again once expired (last: the clock then moves three months on). */
const committed: Record<string, { quoteId: string; outcome: unknown }> = {};

describe('licensed (marketplace) credentials', () => {
  const slug = SLUGS[0];

  it('see the extended card with the read skills only; full credentials see every skill', async () => {
    const licensed = cardJson(await clients[slug].getAgentCard(bearer(host.credentials[slug].licensedA2a)));
    const full = cardJson(await clients[slug].getAgentCard(bearer(host.credentials[slug].a2a)));
    expect(full.skills.map((s: any) => s.id)).toEqual([...SKILL_IDS]);
    expect(licensed.skills.map((s: any) => s.id)).toEqual(
      SKILL_IDS.filter((id) => !['prepare_action', 'commit_action'].includes(id)),
    );
    expect(Object.keys(licensed.capabilities.extensions[0].params.inputSchemas)).toEqual(
      licensed.skills.map((s: any) => s.id),
    );
  });

  it('call read skills, and are refused actions with -32004 INSUFFICIENT_SCOPE', async () => {
    const secret = host.credentials[slug].licensedA2a;
    const read = Message.toJSON(
      (await send(slug, 'check_service_area', { municipality: 'Porto' }, secret)) as Message,
    ) as any;
    expect(read.parts[0].data.inside).toBe(true);
    expect(answerOf(await task(slug, 'assess_project_fit', FACTS[slug].project, secret)).data.verdict).toBe('fit');
    const error: any = await send(slug, 'prepare_action', FACTS[slug].action, secret).catch((e) => e);
    expect(error.name).toBe('UnsupportedOperationError');
    expect(error.data[0].reason).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('tasks belong to their credential', () => {
  const slug = SLUGS[1];

  it('GetTask and CancelTask by another credential: -32001; ListTasks lists only the caller’s, paged', async () => {
    const mine = await task(slug, 'assess_project_fit', FACTS[slug].project, host.credentials[slug].licensedA2a);
    const other = bearer(host.credentials[slug].a2a);
    const error: any = await clients[slug].getTask(GetTaskRequest.fromJSON({ id: mine.id }), other).catch((e) => e);
    expect(error.name).toBe('TaskNotFoundError');
    expect(
      (await clients[slug].cancelTask(CancelTaskRequest.fromJSON({ id: mine.id }), other).catch((e) => e)).name,
    ).toBe('TaskNotFoundError');

    const secret = host.credentials[slug].licensedA2a;
    for (let i = 0; i < 4; i++) await task(slug, 'assess_project_fit', FACTS[slug].project, secret);
    const seen: string[] = [];
    let pageToken = '';
    let total = 0;
    do {
      const page = await clients[slug].listTasks(
        ListTasksRequest.fromJSON({ pageSize: 2, pageToken, includeArtifacts: true }),
        bearer(secret),
      );
      total = page.totalSize;
      for (const t of page.tasks) {
        const wire = Task.toJSON(t) as any;
        seen.push(wire.id);
        expect(wire.artifacts).toHaveLength(1);
      }
      pageToken = page.nextPageToken;
    } while (pageToken !== '');
    expect(total).toBe(5);
    expect(new Set(seen).size).toBe(5);
    expect(seen).toContain(mine.id);
  });

  it('ListTasks filters by state and context, and leaves out history and artifacts unless asked', async () => {
    const secret = host.credentials[slug].licensedA2a;
    const rejected = await task(slug, 'procurement_compare_contractsers', { dimension: 'contracts' }, secret);
    const list = async (params: Record<string, unknown>) =>
      (await clients[slug].listTasks(ListTasksRequest.fromJSON(params), bearer(secret))).tasks.map(
        (t) => Task.toJSON(t) as any,
      );
    host.clock.advance(1_000);
    const onlyRejected = await list({ status: 'TASK_STATE_REJECTED' });
    expect(onlyRejected.map((t) => t.id)).toEqual([rejected.id]);
    host.clock.advance(1_000);
    const inContext = await list({ contextId: rejected.contextId, historyLength: 0 });
    expect(inContext.map((t) => t.id)).toEqual([rejected.id]);
    expect(inContext[0].history ?? []).toEqual([]);
    host.clock.advance(1_000);
    for (const t of await list({})) expect(t.artifacts ?? []).toEqual([]);
    // Every A2A 1.0 state is a filter; the two no skill ever reaches list nothing (the credential has tasks).
    expect((await list({})).length).toBeGreaterThan(0);
    for (const status of ['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']) {
      host.clock.advance(1_000);
      const page = await clients[slug].listTasks(ListTasksRequest.fromJSON({ status }), bearer(secret));
      expect([page.tasks, page.totalSize, page.nextPageToken]).toEqual([[], 0, '']);
    }
  });

  it('CancelTask: a final task cannot be canceled (-32002)', async () => {
    const done = await task(slug, 'assess_project_fit', FACTS[slug].project);
    const error: any = await clients[slug]
      .cancelTask(CancelTaskRequest.fromJSON({ id: done.id }), bearer(host.credentials[slug].a2a))
      .catch((e) => e);
    expect(error.data[0].reason).toBe('TASK_NOT_CANCELABLE');
  });
});

describe('expired quotes (the clock moves 91 days on: last in this file)', () => {
  it('an expired quote is rejected; a quote committed before it expired still answers the same outcome', async () => {
    const pending: Record<string, string> = {};
    for (const slug of SLUGS)
      pending[slug] = answerOf(await task(slug, 'prepare_action', FACTS[slug].action)).data.quote_id;
    host.clock.advance(91 * 86_400_000);
    for (const slug of SLUGS) {
      expect(rejection(await task(slug, 'commit_action', { quote_id: pending[slug] })).detail).toMatch(/expired/);
      expect(answerOf(await task(slug, 'commit_action', { quote_id: committed[slug].quoteId })).data).toEqual(
        committed[slug].outcome,
      );
    }
  });
});
