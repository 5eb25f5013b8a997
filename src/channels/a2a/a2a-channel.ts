/**
 * The data service's A2A agent: the agent card at `/.well-known/agent-card.json` and JSON-RPC 2.0 at
 * `POST /a2a`. A translator over the registry and the core: every operation is a skill; every check and handler
 * runs in the core; errors come from the core's one table. The protocol itself (checks, envelope, methods) is
 * `a2a-protocol.ts`, shared with the company agents; this file says what the data agent is.
 *
 * Admission (HTTP level): Origin (403) → credential (401) → per-minute limit (429) → plan with data API access (403).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Admission } from '../../core/admission.js';
import { buildCharged } from '../../core/charge.js';
import type { Core } from '../../core/core.js';
import { csvNote } from '../../core/csv-note.js';
import { plainSchema } from '../../core/json-schema.js';
import type { AnyOperation } from '../../core/operation.js';
import { ACCOUNT_TAG, DOMAIN_NAMES, DOMAINS } from '../../lib/domains.js';
import { toApiError } from '../../lib/errors.js';
import type { Json } from '../../lib/json.js';
import { authorizationServerMetadataUrl, OAUTH_PATHS, oauthResource } from '../../lib/oauth-resource.js';
import { OPENAPI_DOCUMENT_VERSION, serviceIconUrl } from '../../lib/service.js';
import type { Registry } from '../../operations/registry.js';
import { DataChannelEndpoint } from '../http/data-channel-endpoint.js';
import { refuseMethodsOtherThanGet } from '../http/methods.js';
import { sendProblem } from '../http/problem-reply.js';
import { requestFacts } from '../http/request-facts.js';
import type { MethodAnswer } from '../jsonrpc/index.js';
import { type A2aAgent, mountA2aEndpoint, paramsError, sendCard, taskNotFound } from './a2a-protocol.js';
import { A2A_PATH, AGENT_CARD_PATH, type CardSkill, type CardSpec, Cards } from './card.js';
import type { CardSigner } from './card-signature.js';
import type { ListTasksQuery } from './list-tasks.js';
import { acceptedOutputModes, answerMode, CSV_MODE, JSON_MODE } from './output-modes.js';
import { messageResultBytes, type SkillCall } from './send-message.js';

const AGENT_NAME = 'munidata';
const AGENT_DESCRIPTION =
  'Read-only data service over Portuguese municipal data: indicators, municipalities, signals, procurement and ' +
  'alerts. Each skill is one typed request: send SendMessage with exactly one data part {"skill": <skill id>, ' +
  '"input": {...}} (mediaType application/json); the answer is a message whose data part is the same JSON as the ' +
  'REST endpoint (a list wrapped as {"items": [...]}). No task is created. Call the skill `me` first to learn the ' +
  'plan, scopes and usage.';
const KEY_DESCRIPTION = 'An API key (sk_live_…) of an account whose plan includes data API access.';
const NO_TASKS = 'this agent creates no tasks';
/** How a client asks a skill for its CSV form (output-modes.ts; docs/a2a.md, Output modes). */
const CSV_HOW_TO_ASK =
  'set `configuration.acceptedOutputModes` to `["text/csv"]` (the answer is then one `text/csv` text part)';

/** The data service's card: one skill per operation (id = name, name = title, tags = its data domain). */
export function dataCardSpec(
  baseUrl: string,
  operations: readonly AnyOperation[],
  outputModes: (op: AnyOperation) => readonly string[],
): CardSpec {
  return {
    name: AGENT_NAME,
    description: AGENT_DESCRIPTION,
    url: `${baseUrl}${A2A_PATH}`,
    provider: { organization: AGENT_NAME, url: baseUrl },
    version: OPENAPI_DOCUMENT_VERSION,
    documentationUrl: `${baseUrl}/docs`,
    iconUrl: serviceIconUrl(baseUrl),
    credentialDescription: KEY_DESCRIPTION,
    oauth: {
      description:
        'OAuth 2.1 authorization code with PKCE (S256): the account holder signs in and consents; the token is bound ' +
        `to the resource ${oauthResource(baseUrl)} and is accepted here too. The authorization server's metadata: ` +
        `${authorizationServerMetadataUrl(baseUrl)}.`,
      authorizationUrl: `${baseUrl}${OAUTH_PATHS.authorization}`,
      tokenUrl: `${baseUrl}${OAUTH_PATHS.token}`,
      refreshUrl: `${baseUrl}${OAUTH_PATHS.token}`,
      metadataUrl: authorizationServerMetadataUrl(baseUrl),
      scopes: Object.fromEntries(DOMAIN_NAMES.map((d) => [DOMAINS[d].scope, DOMAINS[d].description])),
    },
    skills: operations.map((op) => cardSkill(op, outputModes(op))),
  };
}

function cardSkill(op: AnyOperation, outputModes: readonly string[]): CardSkill {
  const csv = outputModes.includes(CSV_MODE) ? csvNote(op, CSV_HOW_TO_ASK) : undefined;
  return {
    outputModes,
    id: op.name,
    name: op.title,
    description: csv === undefined ? op.description : `${op.description}\n\n${csv}`,
    tags: [op.domain ?? ACCOUNT_TAG],
    // Each example is the JSON of a SendMessage data part that calls the skill.
    examples: op.examples.map((example) => JSON.stringify({ skill: op.name, input: example.input })),
    inputSchema: plainSchema(op.input),
  };
}

export function registerA2aChannel(app: FastifyInstance, core: Core, registry: Registry, sign: CardSigner): void {
  const cards = new Cards(
    dataCardSpec(core.baseUrl, registry.all, (op) => outputModesOf(core, op)),
    sign,
  );
  app.get(AGENT_CARD_PATH, (request, reply) => serveCard(core, cards, request, reply));
  refuseMethodsOtherThanGet(app, AGENT_CARD_PATH, core.baseUrl);
  mountA2aEndpoint(app, A2A_PATH, new DataAgent(core, registry, cards));
}

/** What a skill answers in: its REST JSON, and the CSV form of a list (as REST offers it). */
function outputModesOf(core: Core, operation: AnyOperation): readonly string[] {
  return core.offersCsv(operation) ? [JSON_MODE, CSV_MODE] : [JSON_MODE];
}

/** The data service as an A2A agent: skills are the registry's operations, run by the core; no tasks. */
class DataAgent extends DataChannelEndpoint implements A2aAgent<Admission, AnyOperation> {
  readonly #registry: Registry;
  readonly #cards: Cards;

  constructor(core: Core, registry: Registry, cards: Cards) {
    super(core, A2A_PATH, (operation) => `The skill ${operation.name}`);
    this.#registry = registry;
    this.#cards = cards;
  }

  skill(_admission: Admission, id: string): AnyOperation | undefined {
    return this.#registry.get(id);
  }

  skillIds(): readonly string[] {
    return this.#registry.all.map((operation) => operation.name);
  }

  async sendMessage(admission: Admission, call: SkillCall<AnyOperation>, params: Json): Promise<MethodAnswer> {
    if (call.taskId !== undefined) throw taskNotFound(call.taskId, NO_TASKS);
    // Before the call: an answer the client cannot take is refused uncharged.
    const mode = answerMode(acceptedOutputModes(params), outputModesOf(this.core, call.skill), call.skill.name);
    const outcome = await this.core.execute({
      admission,
      operation: call.skill,
      input: call.input,
      encoding: 'json',
      format: mode === CSV_MODE ? 'csv' : 'json',
      etag: false,
      channel: 'a2a',
    });
    // The message is built inside the charge window: if building it fails, the call is refunded.
    const result = await buildCharged(outcome.charge, () => messageResultBytes(call, outcome, mode));
    return { result, quota: outcome.charge.month };
  }

  async extendedCard(admission: Admission): Promise<string> {
    return this.#cards.extended((await this.core.callableOperations(admission.caller)).map((op) => op.name));
  }

  async getTask(_admission: Admission, id: string): Promise<string> {
    throw taskNotFound(id, NO_TASKS);
  }

  async cancelTask(_admission: Admission, id: string): Promise<string> {
    throw taskNotFound(id, NO_TASKS);
  }

  /** The data agent creates no tasks: always an empty, well-formed page; it issued no page token to continue. */
  async listTasks(_admission: Admission, query: ListTasksQuery): Promise<string> {
    if (query.pageToken !== undefined) throw paramsError('pageToken', 'is not a token this agent issued');
    return JSON.stringify({ tasks: [], nextPageToken: '', pageSize: query.pageSize, totalSize: 0 });
  }
}

// ---------------------------------------------------------------------------------------------------------
// The card
// ---------------------------------------------------------------------------------------------------------

async function serveCard(core: Core, cards: Cards, request: FastifyRequest, reply: FastifyReply) {
  try {
    await countCardRequest(core, request);
  } catch (error) {
    return sendProblem(request, reply, toApiError(error), { baseUrl: core.baseUrl });
  }
  return sendCard(cards, request, reply);
}

/**
 * The card is public, yet every HTTP request counts against a per-minute limit: against the caller's plan when
 * it presents a valid key, else against its client address. A wrong key does not hide the card (it was counted
 * against the address by the core).
 */
async function countCardRequest(core: Core, request: FastifyRequest): Promise<void> {
  const facts = requestFacts(request);
  if (facts.origin !== undefined || (facts.authorization === undefined && facts.apiKey === undefined)) {
    await core.limitAnonymous(facts.clientAddress);
    return;
  }
  try {
    await core.admit(facts);
  } catch (error) {
    if (toApiError(error).kind !== 'invalid-auth') throw error;
  }
}
