/**
 * `completion/complete` (server/utilities/completion): values for an argument of a prompt (`ref/prompt`) or of a
 * resource template (`ref/resource`, dispatched to the provider of its scheme), best first, at most 100. A reference
 * this server does not have, or one of its arguments it does not know, completes to no values: completion is a
 * typing aid, and a field nothing can fill gets no suggestions (docs/mcp.md, Completions).
 */
import type { Json } from '../../../lib/json.js';
import { invalidParams, type MethodAnswer } from '../../jsonrpc/index.js';
import type { Completion } from '../resources/resource-provider.js';
import type { ResourceProviders } from '../resources/resource-providers.js';
import { MAX_VALUES } from './argument-values.js';

/** What completes a prompt's arguments. */
export interface PromptCompleter<P> {
  complete(principal: P, name: unknown, argument: string, value: string): Promise<Completion | undefined>;
}

const NONE: Completion = { values: [], total: 0 };

export async function completeResult<P>(
  principal: P,
  params: Json,
  prompts: PromptCompleter<P>,
  resources: ResourceProviders<P>,
): Promise<MethodAnswer> {
  const { ref, argument } = params;
  if (!isObject(ref) || typeof ref.type !== 'string') throw invalidParams('ref must be an object with a type');
  if (!isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw invalidParams('argument must be an object with a name and a value, both strings');
  }
  const context = isObject(params.context) && isObject(params.context.arguments) ? params.context.arguments : {};
  let found: Completion | undefined;
  if (ref.type === 'ref/prompt') {
    found = await prompts.complete(principal, ref.name, argument.name, argument.value);
  } else if (ref.type === 'ref/resource') {
    if (typeof ref.uri !== 'string') throw invalidParams('ref.uri must be a string: the URI template');
    const provider = resources.of(ref.uri);
    const strings: Record<string, string> = {};
    for (const [name, value] of Object.entries(context)) if (typeof value === 'string') strings[name] = value;
    found = await provider?.complete?.(principal, ref.uri, argument.name, argument.value, strings);
  } else {
    throw invalidParams('ref.type must be ref/prompt or ref/resource');
  }
  const { values, total } = found ?? NONE;
  const completion = { values: values.slice(0, MAX_VALUES), total, hasMore: total > MAX_VALUES };
  return { result: JSON.stringify({ completion }) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
