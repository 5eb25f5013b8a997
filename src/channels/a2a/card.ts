/**
 * Agent cards of any agent this service hosts — the data service (derived from the registry) and each company
 * deployment (derived from its skills): one skill per callable thing, the JSON Schema of each skill's input in
 * the card's extension, the credential as Bearer and as `X-API-Key`. Two shapes: A2A 1.0 (ProtoJSON,
 * `supportedInterfaces`, oneof security schemes) and the 0.3-shaped compatibility card (`url`,
 * `preferredTransport`, OpenAPI-style security schemes), which names the same 1.0 interface.
 *
 * Every card is signed (card-signature.ts). The public cards are signed and serialised once, with their ETag;
 * extended cards (cut to the skills a credential can call) once per distinct set of skills.
 */
import { createHash } from 'node:crypto';
import type { JsonSchema } from '../../core/json-schema.js';
import type { CardSigner } from './card-signature.js';

export const A2A_PROTOCOL_VERSION = '1.0';
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
export const A2A_PATH = '/a2a';
/** The card extension that carries every skill's input schema (`capabilities.extensions[0]`). */
export const INPUT_SCHEMAS_EXTENSION_URI = 'urn:munidata:a2a:input-schemas:v1';

const MEDIA_TYPES = ['application/json'];

export type CardVersion = '1.0' | '0.3';

export interface SerializedCard {
  readonly json: string;
  readonly etag: string;
}

/** One skill as a card shows it. */
export interface CardSkill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
  /** JSON texts of SendMessage data parts that call the skill. */
  readonly examples: readonly string[];
  /** The JSON Schema of the data part's `input` (published in extension 0). */
  readonly inputSchema: JsonSchema;
  /** The media types it answers in, preferred first (default: JSON alone). */
  readonly outputModes?: readonly string[];
}

/** What a card says about its agent; both card shapes are built from it. */
export interface CardSpec {
  readonly name: string;
  readonly description: string;
  /** The exact JSON-RPC endpoint. */
  readonly url: string;
  readonly provider: { readonly organization: string; readonly url: string };
  readonly version: string;
  readonly documentationUrl?: string;
  /** The agent's icon (an image the service serves). */
  readonly iconUrl: string;
  /** How to get the credential the security schemes ask for. */
  readonly credentialDescription: string;
  /** The OAuth authorization server whose access tokens the agent accepts beside API keys (docs/oauth.md). */
  readonly oauth?: CardOAuth;
  readonly skills: readonly CardSkill[];
}

export interface CardOAuth {
  readonly description: string;
  readonly authorizationUrl: string;
  readonly tokenUrl: string;
  readonly refreshUrl: string;
  /** RFC 8414 metadata of the authorization server. */
  readonly metadataUrl: string;
  /** Each scope with what it grants. */
  readonly scopes: Readonly<Record<string, string>>;
}

/**
 * The 1.0 schemes and requirements: bearer API key, `X-API-Key`, and OAuth when the agent has it; any one is enough.
 */
function security(spec: CardSpec) {
  const description = spec.credentialDescription;
  const schemes: Record<string, unknown> = {
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'API key', description } },
    apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key', description } },
  };
  const requirements: unknown[] = [{ schemes: { bearer: { list: [] } } }, { schemes: { apiKey: { list: [] } } }];
  const { oauth } = spec;
  if (oauth) {
    schemes.oauth2 = {
      oauth2SecurityScheme: {
        description: oauth.description,
        flows: { authorizationCode: { ...authorizationCodeFlow(oauth), pkceRequired: true } },
        oauth2MetadataUrl: oauth.metadataUrl,
      },
    };
    requirements.push({ schemes: { oauth2: { list: [] } } });
  }
  return { securitySchemes: schemes, securityRequirements: requirements };
}

/** The OAuth authorization-code flow, the same fields in both card versions (1.0 adds `pkceRequired`). */
function authorizationCodeFlow({ authorizationUrl, tokenUrl, refreshUrl, scopes }: CardOAuth) {
  return { authorizationUrl, tokenUrl, refreshUrl, scopes };
}

/** The same in the 0.3 card's OpenAPI-style form. */
function legacySecurity(spec: CardSpec) {
  const description = spec.credentialDescription;
  const schemes: Record<string, unknown> = {
    bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'API key', description },
    apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description },
  };
  const requirements: unknown[] = [{ bearer: [] }, { apiKey: [] }];
  const { oauth } = spec;
  if (oauth) {
    schemes.oauth2 = {
      type: 'oauth2',
      description: oauth.description,
      flows: { authorizationCode: authorizationCodeFlow(oauth) },
      oauth2MetadataUrl: oauth.metadataUrl,
    };
    requirements.push({ oauth2: [] });
  }
  return { securitySchemes: schemes, security: requirements };
}

function skillEntry(skill: CardSkill) {
  return {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    tags: skill.tags,
    examples: skill.examples,
    inputModes: MEDIA_TYPES,
    outputModes: skill.outputModes ?? MEDIA_TYPES,
  };
}

function capabilities(skills: readonly CardSkill[]) {
  return {
    streaming: false,
    pushNotifications: false,
    extendedAgentCard: true,
    extensions: [
      {
        uri: INPUT_SCHEMAS_EXTENSION_URI,
        description: "The JSON Schema of each skill's `input`, keyed by skill id.",
        required: false,
        params: { inputSchemas: Object.fromEntries(skills.map((skill) => [skill.id, skill.inputSchema])) },
      },
    ],
  };
}

/** The one interface: JSON-RPC at the exact endpoint, protocol 1.0. */
function supportedInterfaces(spec: CardSpec) {
  return [{ url: spec.url, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION }];
}

/** The A2A 1.0 card (ProtoJSON). */
export function buildCard(spec: CardSpec, skills: readonly CardSkill[] = spec.skills): Record<string, unknown> {
  return {
    name: spec.name,
    description: spec.description,
    supportedInterfaces: supportedInterfaces(spec),
    provider: spec.provider,
    version: spec.version,
    ...(spec.documentationUrl === undefined ? {} : { documentationUrl: spec.documentationUrl }),
    iconUrl: spec.iconUrl,
    capabilities: capabilities(skills),
    ...security(spec),
    defaultInputModes: MEDIA_TYPES,
    defaultOutputModes: MEDIA_TYPES,
    skills: skills.map(skillEntry),
  };
}

/**
 * The 0.3-shaped compatibility card, served when the request names no 1.0 version (a client that fetched the card
 * without `A2A-Version`, as the TCK does). It claims nothing the endpoint refuses: its `protocolVersion` is 1.0, the
 * only one `url` speaks (a 0.3 call gets -32009), and it carries the 1.0 card's `supportedInterfaces` too, which 1.0
 * clients read first (a card with them is a 1.0 card to them, whatever else it holds): docs/a2a.md, The agent card.
 */
export function buildLegacyCard(spec: CardSpec): Record<string, unknown> {
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: spec.name,
    description: spec.description,
    supportedInterfaces: supportedInterfaces(spec),
    url: spec.url,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url: spec.url, transport: 'JSONRPC' }],
    provider: spec.provider,
    version: spec.version,
    ...(spec.documentationUrl === undefined ? {} : { documentationUrl: spec.documentationUrl }),
    iconUrl: spec.iconUrl,
    capabilities: capabilities(spec.skills),
    ...legacySecurity(spec),
    defaultInputModes: MEDIA_TYPES,
    defaultOutputModes: MEDIA_TYPES,
    skills: spec.skills.map(skillEntry),
    supportsAuthenticatedExtendedCard: true,
  };
}

export function serializeCard(card: Record<string, unknown>): SerializedCard {
  const json = JSON.stringify(card);
  return { json, etag: `W/"${createHash('sha1').update(json).digest('base64url')}"` };
}

/**
 * Every card of one agent, signed and computed once: the two public cards the first time each is asked for, each
 * extended card (1.0) the first time its set of skills is. Sets of skills are few (plans × scopes, or full ×
 * licensed), so the memo stays small.
 */
export class Cards {
  readonly #spec: CardSpec;
  readonly #sign: CardSigner;
  readonly #public = new Map<CardVersion, Promise<SerializedCard>>();
  readonly #byId: ReadonlyMap<string, CardSkill>;
  readonly #extended = new Map<string, Promise<string>>();

  constructor(spec: CardSpec, sign: CardSigner) {
    this.#spec = spec;
    this.#sign = sign;
    this.#byId = new Map(spec.skills.map((skill) => [skill.id, skill]));
  }

  public(version: CardVersion): Promise<SerializedCard> {
    let card = this.#public.get(version);
    if (card === undefined) {
      const unsigned = version === '1.0' ? buildCard(this.#spec) : buildLegacyCard(this.#spec);
      card = this.#remember(this.#public, version, this.#sign(unsigned).then(serializeCard));
    }
    return card;
  }

  /** The 1.0 card cut to these skills (ids of the card's skills, in the card's order), as JSON text. */
  extended(skillIds: readonly string[]): Promise<string> {
    const key = skillIds.join(',');
    let json = this.#extended.get(key);
    if (json === undefined) {
      const skills = skillIds.flatMap((id) => {
        const skill = this.#byId.get(id);
        return skill ? [skill] : [];
      });
      const signed = this.#sign(buildCard(this.#spec, skills)).then((card) => JSON.stringify(card));
      json = this.#remember(this.#extended, key, signed);
    }
    return json;
  }

  /** Kept once made; a signing that failed is forgotten, so the next request tries again. */
  #remember<K, V>(memo: Map<K, Promise<V>>, key: K, made: Promise<V>): Promise<V> {
    memo.set(key, made);
    made.catch(() => memo.delete(key));
    return made;
  }
}
