/**
 * Titled schemas written once where they recur. The registry's schemas name their resources (`Party`, `OcdsRelease`,
 * `OcdsValue`…), and one answer can hold the same resource many times: an OCDS record holds its releases and their
 * compiled release, each with values, items and classifications. Inlined, an MCP tool's output schema repeats each
 * (the OCDS record's, 18 kB, half of it twice); an agent pays for every byte of `tools/list` (docs/mcp.md, "Size of
 * the lists"). The OpenAPI document hoists every titled schema into its components; here only what recurs is.
 */
import type { Json } from '../lib/json.js';
import { type JsonSchema, mapSchemas } from './json-schema.js';

/** `Page of IndicatorSummary` → `PageOfIndicatorSummary` (names allow only `[A-Za-z0-9._-]`: OpenAPI, `$defs`). */
export function schemaName(title: string): string {
  return title
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

/**
 * `schema` with every titled sub-schema that occurs in it more than once (the same title, the same schema) moved to
 * `$defs` under its name and referenced as `#/$defs/<name>`; a schema where nothing recurs comes back unchanged.
 */
export function withRecurringSchemasShared(schema: JsonSchema): JsonSchema {
  const recurring = recurringTitles(schema);
  if (recurring.size === 0) return schema;
  const defs: Record<string, Json> = {};
  // Bottom-up: a shared schema's own recurring parts are references already when it is put in `$defs`.
  const shared = mapSchemas(schema, (node) => {
    if (typeof node.title !== 'string' || !recurring.has(node.title)) return node;
    const name = schemaName(node.title);
    defs[name] = node;
    return { $ref: `#/$defs/${name}` };
  });
  // A part that recurs only inside a shared schema is referenced once when that schema is written once: inline again.
  const uses = new Map<string, number>();
  mapSchemas([shared, defs], (node) => {
    const name = definedName(node);
    if (name !== undefined) uses.set(name, (uses.get(name) ?? 0) + 1);
    return node;
  });
  const inlineOnce = (node: unknown): unknown =>
    mapSchemas(node, (n) => {
      const name = definedName(n);
      return name !== undefined && uses.get(name) === 1 ? inlineOnce(defs[name]) : n;
    });
  const kept = Object.keys(defs).filter((name) => (uses.get(name) ?? 0) > 1);
  return {
    ...(inlineOnce(shared) as JsonSchema),
    $defs: Object.fromEntries(kept.map((name) => [name, inlineOnce(defs[name]) as Json])),
  };
}

function definedName(node: Json): string | undefined {
  const ref = node.$ref;
  return typeof ref === 'string' && ref.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length) : undefined;
}

/** The titles under which the same schema occurs at least twice, and no other schema under that name. */
function recurringTitles(schema: JsonSchema): Set<string> {
  const byName = new Map<string, { title: string; fingerprint: string; count: number }>();
  const ambiguous = new Set<string>();
  mapSchemas(schema, (node) => {
    if (typeof node.title !== 'string') return node;
    const name = schemaName(node.title);
    const fingerprint = JSON.stringify(node);
    const seen = byName.get(name);
    if (seen === undefined) byName.set(name, { title: node.title, fingerprint, count: 1 });
    else if (seen.fingerprint === fingerprint) seen.count++;
    else ambiguous.add(name);
    return node;
  });
  const titles = new Set<string>();
  for (const [name, { title, count }] of byName) if (count > 1 && !ambiguous.has(name)) titles.add(title);
  return titles;
}
