/**
 * `prompts/list` and `prompts/get` of the data server (prompt-definitions.ts). A prompt is listed only to a key that
 * may call every operation it reads; getting it runs its reads through the core (each one charged as the
 * `resources/read` of the same data: docs/mcp.md, Counting) and embeds their answers as resource content blocks.
 */
import type { FastifyRequest } from 'fastify';
import type { Admission } from '../../../core/admission.js';
import type { Core } from '../../../core/core.js';
import type { ErrorPlace } from '../../../lib/errors.js';
import type { Json } from '../../../lib/json.js';
import type { LimitState } from '../../../lib/limit-state.js';
import { JSONRPC_CODES, JsonRpcError, type MethodAnswer } from '../../jsonrpc/index.js';
import { type ArgumentValues, argumentValues, PROMPT_LANGUAGES } from '../completion/argument-values.js';
import { dataResourceUri } from '../resources/data-templates.js';
import { readContents } from '../resources/operation-read.js';
import { restAddress } from '../resources/rest-address.js';
import { type Language, PROMPTS, PromptArgumentError, type PromptDefinition } from './prompt-definitions.js';

const DEFAULT_LANGUAGE: Language = 'en';

const LANGUAGE_ARGUMENT = {
  name: 'language',
  description: `The language of the request: ${PROMPT_LANGUAGES.join(' or ')} (default ${DEFAULT_LANGUAGE}).`,
  required: false,
  kind: 'language',
} as const;

export class DataPrompts {
  readonly #core: Core;
  readonly #place: (request: FastifyRequest) => ErrorPlace;

  constructor(core: Core, place: (request: FastifyRequest) => ErrorPlace) {
    this.#core = core;
    this.#place = place;
  }

  async listResult(admission: Admission, params: Json): Promise<MethodAnswer> {
    if (params.cursor !== undefined && params.cursor !== null) throw invalidParams('the prompt list has one page');
    const prompts = (await this.#visible(admission)).map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: argumentsOf(p).map(({ name, description, required }) => ({ name, description, required })),
    }));
    return { result: JSON.stringify({ prompts }) };
  }

  async get(admission: Admission, params: Json, request: FastifyRequest): Promise<MethodAnswer> {
    const prompt = await this.#named(admission, params.name);
    const args = argumentsGiven(prompt, params.arguments);
    const language = (args.language ?? DEFAULT_LANGUAGE) as Language;
    let reads: ReturnType<PromptDefinition['reads']>;
    try {
      reads = prompt.reads(args, await this.#core.reference());
    } catch (error) {
      if (error instanceof PromptArgumentError) throw invalidParams(error.message);
      throw error;
    }
    const messages: unknown[] = [{ role: 'user', content: { type: 'text', text: prompt.text[language](args) } }];
    let quota: LimitState | undefined;
    for (const read of reads) {
      const uri =
        dataResourceUri(read.operation, read.input) ?? restAddress(this.#core.baseUrl, read.operation, read.input);
      const embedded = await readContents(
        this.#core,
        admission,
        { ...read, encoding: 'json' },
        uri,
        request,
        this.#place(request),
      );
      quota = embedded.quota ?? quota;
      for (const resource of embedded.contents)
        messages.push({ role: 'user', content: { type: 'resource', resource } });
    }
    return { result: JSON.stringify({ description: prompt.description, messages }), quota };
  }

  /** Values for one argument of a prompt this caller sees; undefined when there is no such prompt or argument. */
  async complete(admission: Admission, name: unknown, argument: string, value: string) {
    const prompt = (await this.#visible(admission)).find((p) => p.name === name);
    const declared = prompt && argumentsOf(prompt).find((a) => a.name === argument);
    if (declared === undefined) return undefined;
    if (!('list' in declared)) return argumentValues(this.#core, declared.kind, value);
    // A list completes its last item; each value is the whole list with that item.
    const items = value.split(',');
    const last = items.pop() ?? '';
    const head = items.length === 0 ? '' : `${items.join(',')},`;
    const values: ArgumentValues = await argumentValues(this.#core, declared.kind, last);
    return { ...values, values: values.values.map((v) => `${head}${v}`) };
  }

  async #visible(admission: Admission): Promise<readonly PromptDefinition[]> {
    const callable = new Set(await this.#core.callableOperations(admission.caller));
    return PROMPTS.filter((p) => p.operations.every((op) => callable.has(op)));
  }

  async #named(admission: Admission, name: unknown): Promise<PromptDefinition> {
    if (typeof name !== 'string' || name === '') throw invalidParams('name must be a string: the prompt name');
    const found = (await this.#visible(admission)).find((p) => p.name === name);
    if (found === undefined) throw invalidParams(`unknown prompt ${JSON.stringify(name)}`);
    return found;
  }
}

function argumentsOf(prompt: PromptDefinition) {
  return [...prompt.arguments, LANGUAGE_ARGUMENT];
}

/** The arguments as strings, each required one present, none unknown, the language one of the prompts'. */
function argumentsGiven(prompt: PromptDefinition, given: unknown): Record<string, string> {
  if (given !== undefined && (given === null || typeof given !== 'object' || Array.isArray(given))) {
    throw invalidParams('arguments must be an object of strings');
  }
  const args = (given ?? {}) as Record<string, unknown>;
  const declared = argumentsOf(prompt);
  for (const [name, value] of Object.entries(args)) {
    if (!declared.some((a) => a.name === name)) throw invalidParams(`${prompt.name} has no argument ${name}`);
    if (typeof value !== 'string') throw invalidParams(`argument ${name} must be a string`);
  }
  for (const a of declared) {
    if (a.required && (typeof args[a.name] !== 'string' || (args[a.name] as string).trim() === '')) {
      throw invalidParams(`argument ${a.name} is required: ${a.description}`);
    }
  }
  const language = args.language;
  if (language !== undefined && !(PROMPT_LANGUAGES as readonly unknown[]).includes(language)) {
    throw invalidParams(`argument language must be ${PROMPT_LANGUAGES.join(' or ')}`);
  }
  return args as Record<string, string>;
}

function invalidParams(why: string): JsonRpcError {
  return new JsonRpcError(JSONRPC_CODES.invalidParams, `Invalid params: ${why}.`);
}
