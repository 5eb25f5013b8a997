/**
 * What an operation's description says of its CSV form, derived from its output schema (csv.ts), written once for the
 * channels that serve CSV; each says how to ask for it there (REST: `Accept`/`format`; A2A: `acceptedOutputModes`).
 * MCP serves no CSV and says nothing of it. The descriptor's own `description` never speaks of CSV: it is shown on
 * every channel (docs/api.md, CSV).
 */
import { csvTable } from './csv.js';
import { SYNTHETIC } from './csv-columns.js';
import { plainSchema } from './json-schema.js';
import type { AnyOperation } from './operation.js';

/** The CSV columns of a list operation, in order; `undefined` for the others, which answer JSON only. */
export function csvColumns(op: AnyOperation): readonly string[] | undefined {
  return csvTable(op.output, op.csvRows)?.columns;
}

/**
 * "Also as CSV (RFC 4180): <how to ask> for a header row and one row per …; columns …", or `undefined` for an
 * operation without a CSV form. An answer whose rows are one of its members (the aggregate's `groups`) names the
 * members only its JSON holds (`group_by`, `totals`).
 */
export function csvNote(op: AnyOperation, howToAsk: string): string | undefined {
  const columns = csvColumns(op);
  if (columns === undefined) return undefined;
  const rows = op.csvRows === undefined ? 'item' : `element of \`${op.csvRows}\``;
  const jsonOnly =
    op.csvRows === undefined
      ? []
      : Object.keys(plainSchema(op.output).properties ?? {}).filter((m) => m !== op.csvRows && m !== SYNTHETIC);
  const inJsonAlone =
    jsonOnly.length === 0
      ? ''
      : ` The answer's ${jsonOnly.map((m) => `\`${m}\``).join(' and ')} are in its JSON alone.`;
  return (
    `Also as CSV (RFC 4180): ${howToAsk}, for a header row and one row per ${rows}, with the same filters and ` +
    `paging; columns ${columns.map((c) => `\`${c}\``).join(', ')}. Nested objects become dotted columns, lists are ` +
    `joined by \`|\`.${inJsonAlone}`
  );
}
