/**
 * JSON Schema helpers every surface derived from the registry needs: the OpenAPI document, the A2A card's input
 * schemas, the MCP tool list and the company agents' skills all publish an operation's schemas the same way.
 */
import type { TSchema } from '@sinclair/typebox';
import type { Json } from '../lib/json.js';
import type { AnyOperation } from './operation.js';

/** A JSON Schema as plain JSON (no TypeBox symbols), with unions of string literals published as `enum`. */
export type JsonSchema = Json & {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  description?: string;
};

/**
 * TypeBox schemas carry Symbol-keyed metadata; a JSON round trip leaves the plain JSON Schema. TypeBox writes a
 * union of literals as `anyOf: [{const}, …]`; enumerations are published as `enum` (docs/decisions.md), which
 * every OpenAPI tool renders as a choice list, so such unions are rewritten.
 */
export function plainSchema(schema: TSchema | JsonSchema): JsonSchema {
  return enumsFromConstUnions(JSON.parse(JSON.stringify(schema))) as JsonSchema;
}

function enumsFromConstUnions(node: unknown): unknown {
  return mapSchemas(node, (schema) => {
    const members = schema.anyOf;
    if (!Array.isArray(members) || members.length === 0 || !members.every(isConstOfOneType)) return schema;
    const types = new Set(members.map((m) => (m as Json).type));
    if (types.size !== 1) return schema;
    const { anyOf: _anyOf, ...rest } = schema;
    return { ...rest, type: [...types][0], enum: members.map((m) => (m as Json).const) };
  });
}

function isConstOfOneType(member: unknown): boolean {
  if (member === null || typeof member !== 'object') return false;
  const keys = Object.keys(member);
  return keys.length === 2 && keys.includes('const') && keys.includes('type');
}

/** Keywords whose values are data, not schemas: never rewritten or walked. */
const LITERAL_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);
/** Keywords whose values map names to schemas: a property called `default` is still a schema. */
const NAMED_SCHEMA_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** Rebuilds a JSON Schema bottom-up, passing every (sub)schema object through `fn`. */
export function mapSchemas(node: unknown, fn: (schema: Json) => unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => mapSchemas(n, fn));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (LITERAL_KEYWORDS.has(key)) out[key] = value;
    else if (NAMED_SCHEMA_KEYWORDS.has(key) && value !== null && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, mapSchemas(sub, fn)]));
    } else out[key] = mapSchemas(value, fn);
  }
  return fn(out);
}

/** Paged operations answer a page envelope; their `next_cursor` also comes as a `Link: rel="next"` header. */
export function isPaged(op: AnyOperation): boolean {
  return plainSchema(op.output).properties?.next_cursor !== undefined;
}

/** RFC 9457 problem document with the service's extension members (core/errors.ts `Problem`). */
export const PROBLEM_SCHEMA: JsonSchema = {
  title: 'Problem',
  type: 'object',
  required: ['type', 'title', 'status'],
  properties: {
    type: { type: 'string', format: 'uri', description: '`{base_url}/problems/<kind>`; that URL describes the kind.' },
    title: { type: 'string', description: 'Short summary of the kind.' },
    status: { type: 'integer', description: 'The HTTP status.' },
    detail: { type: 'string', description: 'What went wrong with this request.' },
    instance: { type: 'string', description: 'The request path.' },
    request_id: { type: 'string', description: 'Same as the `Request-Id` header; quote it when reporting a problem.' },
    feature_key: { type: 'string', description: 'The plan feature, domain or scope that is missing.' },
    upgrade_url: { type: 'string', format: 'uri', description: 'Where the plans are explained.' },
    errors: {
      type: 'array',
      description: 'Each offending parameter (validation errors).',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
    suggestions: {
      type: 'array',
      description: 'What the request may have meant, closest first (an unknown municipality: the nearest names).',
      items: {
        type: 'object',
        required: ['code', 'name'],
        properties: { code: { type: 'string' }, slug: { type: 'string' }, name: { type: 'string' } },
      },
    },
  },
};
