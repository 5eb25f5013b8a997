/**
 * `prompts/list` and `prompts/get` of the data server (prompt-definitions.ts). A prompt is listed only to a key that
 * may call every operation it reads; getting it runs its reads through the core (each one charged as the
 * `resources/read` of the same data, the whole prompt or nothing: docs/mcp.md, Counting) and embeds their JSON
 * answers as resource content blocks.
 */
import type { FastifyRequest } from 'fastify';
import type { Admission } from '../../../core/admission.js';
import { HeldCharges } from '../../../core/charge.js';
import type { Core } from '../../../core/core.js';
import type { ErrorPlace } from '../../../lib/errors.js';
import type { Json } from '../../../lib/json.js';
import { invalidParams, type MethodAnswer } from '../../jsonrpc/index.js';
import { type ArgumentValues, argumentValues, PROMPT_LANGUAGES } from '../completion/argument-values.js';
import { dataResourceUri } from '../resources/data-templates.js';
import { type HeldRead, readHeld } from '../resources/operation-read.js';
import { restAddress } from '../resources/rest-address.js';
import {
  type Language,
  PROMPTS,
  PromptArgumentError,
  type PromptDefinition,
  type PromptPlan,
  type PromptRead,
} from './prompt-definitions.js';

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

  /**
   * The prompt's request and the answers it embeds. All or nothing (docs/mcp.md, Counting): every read's unit is
   * held until the whole prompt is answered, and given back if any read fails.
   */
  async get(admission: Admission, params: Json, request: FastifyRequest): Promise<MethodAnswer> {
    const prompt = await this.#named(admission, params.name);
    const args = argumentsGiven(prompt, params.arguments);
    const language = (args.language ?? DEFAULT_LANGUAGE) as Language;
    let plan: PromptPlan;
    try {
      plan = prompt.plan(args, await this.#core.reference());
    } catch (error) {
      if (error instanceof PromptArgumentError) throw invalidParams(error.message);
      throw error;
    }
    const held = new HeldCharges();
    const embedded: Embedded[] = [];
    try {
      for (const read of plan.reads) embedded.push(await this.#embed(admission, read, request, held));
    } catch (error) {
      await held.refund();
      throw error;
    }
    const answers = embedded.map((e) => e.pages.map((page) => page.value));
    const notes = embedded.flatMap((e, i) => partialNote(plan.reads[i], e, language) ?? []);
    const text = [plan.request(language, answers), ...notes].join(' ');
    const messages: unknown[] = [{ role: 'user', content: { type: 'text', text } }];
    for (const page of embedded.flatMap((e) => e.pages)) {
      for (const resource of page.contents) messages.push({ role: 'user', content: { type: 'resource', resource } });
    }
    const result = await held.build(() => JSON.stringify({ description: prompt.description, messages }));
    return { result, quota: held.month };
  }

  /** One read's pages, following `next_cursor` up to the read's `pages`; each page's unit held in `held`. */
  async #embed(admission: Admission, read: PromptRead, request: FastifyRequest, held: HeldCharges) {
    const pages: HeldRead[] = [];
    let input = read.input;
    for (;;) {
      const uri = dataResourceUri(read.operation, input) ?? restAddress(this.#core.baseUrl, read.operation, input);
      const page = await readHeld(
        this.#core,
        admission,
        { operation: read.operation, input, encoding: 'json', csv: false },
        uri,
        request,
        this.#place(request),
      );
      held.hold(page.charge);
      pages.push(page);
      const next = morePages(page.value);
      if (next === undefined || pages.length >= (read.pages ?? 1)) return { pages, more: next !== undefined };
      input = { ...read.input, cursor: next };
    }
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

interface Embedded {
  readonly pages: readonly HeldRead[];
  /** Whether the list has more items than its embedded pages hold. */
  readonly more: boolean;
}

/** A page's `next_cursor` when it says more items follow (`has_more`). */
function morePages(value: unknown): string | undefined {
  const page = value as { has_more?: unknown; next_cursor?: unknown } | null;
  return page?.has_more === true && typeof page.next_cursor === 'string' ? page.next_cursor : undefined;
}

/** The sentence telling the model that an embedded list is partial, and how (undefined: it is whole). */
function partialNote(read: PromptRead, embedded: Embedded, language: Language): string | undefined {
  if (!embedded.more) return undefined;
  const count = embedded.pages.reduce((n, page) => n + ((page.value as { items?: unknown[] }).items?.length ?? 0), 0);
  const what = read.partial?.[language](count) ?? (language === 'pt' ? `os primeiros ${count}` : `the first ${count}`);
  return language === 'pt'
    ? `Nota: os dados abaixo têm só ${what}; há mais, que não incluem. Di-lo, e não os apresentes como todos.`
    : `Note: the data below holds only ${what}; more exist that it does not include. Say so, and do not present ` +
        'them as all there are.';
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
