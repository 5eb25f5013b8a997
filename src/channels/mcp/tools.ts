/**
 * MCP tools derived from the registry: every operation is a tool of the same name and input. Definitions
 * are built once at start-up; the `tools/list` result is serialised once per distinct set of callable tools
 * (a plan and a key's scopes give one set; there are few), so listing costs a filter and a map lookup.
 */

import { isPaged, type JsonSchema, PROBLEM_SCHEMA, plainSchema } from '../../core/json-schema.js';
import type { AnyOperation } from '../../core/operation.js';
import { withRecurringSchemasShared } from '../../core/shared-schemas.js';
import { appViewOfTool } from './apps/app-views.js';

/** The most distinct `tools/list` results kept. */
const MAX_LISTS = 1024;

export interface ToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: true;
  readonly destructiveHint: false;
  readonly idempotentHint: true;
  readonly openWorldHint: false;
}

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  readonly annotations: ToolAnnotations;
  /** The MCP Apps view that draws its result (docs/mcp.md, "Apps"), for hosts with the extension. */
  readonly _meta?: { readonly ui: { readonly resourceUri: string } };
}

/** One tool: its definition and how its answer becomes `structuredContent`. */
export interface Tool {
  readonly operation: AnyOperation;
  readonly definition: ToolDefinition;
  /** The REST answer is a JSON array: `structuredContent` is `{"items": [...]}` (MCP wants an object). */
  readonly wrapsArray: boolean;
}

export class ToolCatalogue {
  readonly #byName = new Map<string, Tool>();
  /** `tools/list` result JSON, by the names of the callable tools joined with a comma. */
  readonly #lists = new Map<string, string>();

  constructor(operations: readonly AnyOperation[]) {
    for (const operation of operations) this.#byName.set(operation.name, toTool(operation));
  }

  get(name: string): Tool | undefined {
    return this.#byName.get(name);
  }

  get all(): Tool[] {
    return [...this.#byName.values()];
  }

  get names(): string[] {
    return [...this.#byName.keys()];
  }

  /** The `tools/list` result (JSON text) for these callable operations, in registry order. */
  listResult(callable: readonly AnyOperation[]): string {
    const key = callable.map((op) => op.name).join(',');
    let json = this.#lists.get(key);
    if (json === undefined) {
      const tools = callable.flatMap((op) => {
        const tool = this.#byName.get(op.name);
        return tool ? [tool.definition] : [];
      });
      json = JSON.stringify({ tools });
      // Plans × scope sets × beta give few distinct sets; the bound only guards against the unexpected.
      if (this.#lists.size >= MAX_LISTS) this.#lists.clear();
      this.#lists.set(key, json);
    }
    return json;
  }
}

function toTool(operation: AnyOperation): Tool {
  const output = plainSchema(operation.output);
  const wrapsArray = output.type === 'array';
  const answer: JsonSchema = wrapsArray
    ? {
        type: 'object',
        description: 'The REST answer (a JSON array), wrapped as `items`.',
        properties: { items: output },
        required: ['items'],
        additionalProperties: false,
      }
    : output;
  return {
    operation,
    wrapsArray,
    definition: {
      name: operation.name,
      title: operation.title,
      description: toolDescription(operation),
      inputSchema: inputSchemaOf(operation),
      outputSchema: withRecurringSchemasShared({
        type: 'object',
        description:
          'The same JSON as the REST endpoint; or, in a result with `isError: true`, the REST problem document ' +
          '(`type`, `title`, `status`, `detail`).',
        anyOf: [answer, PROBLEM_SCHEMA],
      }),
      annotations: {
        title: operation.title,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      ...uiMeta(operation.name),
    },
  };
}

/** `_meta.ui.resourceUri` for a tool an MCP Apps view draws; nothing for the others. */
function uiMeta(name: string): Pick<ToolDefinition, '_meta'> {
  const view = appViewOfTool(name);
  return view === undefined ? {} : { _meta: { ui: { resourceUri: view.uri } } };
}

/** The registry's input schema as plain JSON Schema; MCP requires an object schema at the root. */
function inputSchemaOf(operation: AnyOperation): JsonSchema {
  const schema = plainSchema(operation.input);
  if (schema.type !== 'object') throw new Error(`${operation.name}: an MCP tool's input must be an object schema`);
  return schema;
}

/** The operation's description for an agent, with what the registry knows about access, quota and paging. */
function toolDescription(operation: AnyOperation): string {
  const notes: string[] = [];
  if (operation.free) notes.push('Free: uses no quota.');
  else notes.push('Each call counts as one request against the monthly quota.');
  if (isPaged(operation)) {
    notes.push(
      'Paged: while `has_more` is true, call again with `cursor` set to the `next_cursor` of the previous answer.',
    );
  }
  return [operation.description, ...notes].join('\n\n');
}
