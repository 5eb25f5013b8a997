/**
 * The agent cards, derived from the registry: one skill per operation (id = operation name, name = title,
 * tags = its data domain), the JSON Schema of each skill's input in the card's extension, the API key as Bearer
 * and as `X-API-Key`. Two shapes: A2A 1.0 (ProtoJSON, `supportedInterfaces`, oneof security schemes) and the
 * 0.3 compatibility card (`url`, `preferredTransport`, OpenAPI-style security schemes).
 *
 * The public cards are serialised once, with their ETag; extended cards (cut to the skills a key can call) are
 * serialised once per distinct set of skills.
 */
import { createHash } from 'node:crypto';
import type { AnyOperation } from '../../core/operation.js';
import { ACCOUNT_TAG, OPENAPI_DOCUMENT_VERSION, plainSchema } from '../rest/openapi.js';

export const A2A_PROTOCOL_VERSION = '1.0';
export const A2A_LEGACY_CARD_VERSION = '0.3.0';
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
export const A2A_PATH = '/a2a';
/** The card extension that carries every skill's input schema (`capabilities.extensions[0]`). */
export const INPUT_SCHEMAS_EXTENSION_URI = 'urn:munidata:a2a:input-schemas:v1';

const AGENT_NAME = 'munidata';
const AGENT_DESCRIPTION =
  'Read-only data service over Portuguese municipal data: indicators, municipalities, signals, procurement and alerts. ' +
  'Each skill is one typed request: send SendMessage with exactly one data part {"skill": <skill id>, "input": {...}} ' +
  '(mediaType application/json); the answer is a message whose data part is the same JSON as the REST endpoint ' +
  '(a list wrapped as {"items": [...]}). No task is created. Call the skill `me` first to learn the plan, scopes and usage.';
const MEDIA_TYPES = ['application/json'];
const KEY_DESCRIPTION = 'An API key (sk_live_…) of an account whose plan includes data API access.';

export type CardVersion = '1.0' | '0.3';

export interface SerializedCard {
  readonly json: string;
  readonly etag: string;
}

export interface CardSource {
  readonly baseUrl: string;
  readonly operations: readonly AnyOperation[];
}

function skill(op: AnyOperation) {
  return {
    id: op.name,
    name: op.title,
    description: op.description,
    tags: [op.domain ?? ACCOUNT_TAG],
    // Each example is the JSON of a SendMessage data part that calls the skill.
    examples: op.examples.map((example) => JSON.stringify({ skill: op.name, input: example.input })),
    inputModes: MEDIA_TYPES,
    outputModes: MEDIA_TYPES,
  };
}

function capabilities(operations: readonly AnyOperation[]) {
  return {
    streaming: false,
    pushNotifications: false,
    extendedAgentCard: true,
    extensions: [
      {
        uri: INPUT_SCHEMAS_EXTENSION_URI,
        description: "The JSON Schema of each skill's `input`, keyed by skill id.",
        required: false,
        params: { inputSchemas: Object.fromEntries(operations.map((op) => [op.name, plainSchema(op.input)])) },
      },
    ],
  };
}

/** The A2A 1.0 card (ProtoJSON). */
export function buildCard(source: CardSource): Record<string, unknown> {
  const { baseUrl, operations } = source;
  return {
    name: AGENT_NAME,
    description: AGENT_DESCRIPTION,
    supportedInterfaces: [{ url: `${baseUrl}${A2A_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: { organization: AGENT_NAME, url: baseUrl },
    version: OPENAPI_DOCUMENT_VERSION,
    documentationUrl: `${baseUrl}/docs`,
    capabilities: capabilities(operations),
    securitySchemes: {
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'API key', description: KEY_DESCRIPTION } },
      apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key', description: KEY_DESCRIPTION } },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }, { schemes: { apiKey: { list: [] } } }],
    defaultInputModes: MEDIA_TYPES,
    defaultOutputModes: MEDIA_TYPES,
    skills: operations.map(skill),
  };
}

/** The A2A 0.3 compatibility card, served when the request names no 1.0 version. */
export function buildLegacyCard(source: CardSource): Record<string, unknown> {
  const { baseUrl, operations } = source;
  const url = `${baseUrl}${A2A_PATH}`;
  return {
    protocolVersion: A2A_LEGACY_CARD_VERSION,
    name: AGENT_NAME,
    description: AGENT_DESCRIPTION,
    url,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url, transport: 'JSONRPC' }],
    provider: { organization: AGENT_NAME, url: baseUrl },
    version: OPENAPI_DOCUMENT_VERSION,
    documentationUrl: `${baseUrl}/docs`,
    capabilities: capabilities(operations),
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: KEY_DESCRIPTION },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: KEY_DESCRIPTION },
    },
    security: [{ bearer: [] }, { apiKey: [] }],
    defaultInputModes: MEDIA_TYPES,
    defaultOutputModes: MEDIA_TYPES,
    skills: operations.map(skill),
    supportsAuthenticatedExtendedCard: true,
  };
}

export function serializeCard(card: Record<string, unknown>): SerializedCard {
  const json = JSON.stringify(card);
  return { json, etag: `W/"${createHash('sha1').update(json).digest('base64url')}"` };
}

/**
 * Every card this channel serves, computed once: the two public cards at start-up, each extended card (1.0) the
 * first time its set of skills is asked for. Sets of skills are few (plans × scopes), so the memo stays small.
 */
export class Cards {
  readonly #baseUrl: string;
  readonly #public: Record<CardVersion, SerializedCard>;
  readonly #extended = new Map<string, string>();

  constructor(source: CardSource) {
    this.#baseUrl = source.baseUrl;
    this.#public = { '1.0': serializeCard(buildCard(source)), '0.3': serializeCard(buildLegacyCard(source)) };
  }

  public(version: CardVersion): SerializedCard {
    return this.#public[version];
  }

  /** The 1.0 card cut to these operations, as JSON text. */
  extended(operations: readonly AnyOperation[]): string {
    const key = operations.map((op) => op.name).join(',');
    let json = this.#extended.get(key);
    if (json === undefined) {
      json = JSON.stringify(buildCard({ baseUrl: this.#baseUrl, operations }));
      this.#extended.set(key, json);
    }
    return json;
  }
}
