/**
 * The data as resources (`munidata://`): each template is one read operation (data-templates.ts), and a read is
 * that operation's call through the core — the same validation, scopes, plan, quota and answer as the tool of the
 * same operation, so it equals the REST answer (and carries its CSV where REST has one). The listed resources are
 * the municipalities and the indicators; contracts, entities, signals and cases are too many to list and are read
 * through their templates. docs/mcp.md, Resources.
 */
import type { FastifyRequest } from 'fastify';
import type { Admission } from '../../../core/admission.js';
import type { Core } from '../../../core/core.js';
import type { AnyOperation } from '../../../core/operation.js';
import type { ErrorPlace } from '../../../lib/errors.js';
import type { MethodAnswer } from '../../jsonrpc/index.js';
import { argumentValues } from '../completion/argument-values.js';
import { DATA_SCHEME, DATA_TEMPLATES, type DataTemplate, matchDataTemplate } from './data-templates.js';
import { JSON_TYPE, readContents } from './operation-read.js';
import type { Completion, ResourceEntry, ResourceProvider, ResourceTemplate } from './resource-provider.js';
import { resourceNotFound } from './resource-providers.js';

export class DataResources implements ResourceProvider<Admission> {
  readonly scheme = DATA_SCHEME;
  readonly #core: Core;
  readonly #place: (request: FastifyRequest) => ErrorPlace;

  constructor(core: Core, place: (request: FastifyRequest) => ErrorPlace) {
    this.#core = core;
    this.#place = place;
  }

  async templates(admission: Admission): Promise<readonly ResourceTemplate[]> {
    return (await this.#readable(admission)).map((t) => ({
      uriTemplate: t.uri.template,
      name: t.name,
      title: t.operation.title,
      description: t.operation.summary,
      mimeType: JSON_TYPE,
    }));
  }

  async list(admission: Admission): Promise<readonly ResourceEntry[]> {
    const readable = new Set((await this.#readable(admission)).map((t) => t.name));
    const reference = await this.#core.reference();
    const entries: ResourceEntry[] = [];
    if (readable.has('municipality')) {
      for (const m of reference.municipalities) {
        entries.push({ uri: uriOf('municipality', { code: m.code }), name: m.name, mimeType: JSON_TYPE });
      }
    }
    if (readable.has('indicator')) {
      for (const i of reference.indicators) {
        entries.push({ uri: uriOf('indicator', { key: i.key }), name: i.key, title: i.name, mimeType: JSON_TYPE });
      }
    }
    return entries;
  }

  async read(admission: Admission, uri: string, request: FastifyRequest): Promise<MethodAnswer> {
    const found = matchDataTemplate(uri);
    if (found === undefined) throw resourceNotFound(uri);
    const { operation, input } = found.template;
    const read = { operation, input: input(found.variables), encoding: 'text', csv: true } as const;
    const { contents, quota } = await readContents(this.#core, admission, read, uri, request, this.#place(request));
    return { result: JSON.stringify({ contents }), quota };
  }

  async complete(
    admission: Admission,
    uriTemplate: string,
    argument: string,
    value: string,
  ): Promise<Completion | undefined> {
    const found = (await this.#readable(admission)).find((t) => t.uri.template === uriTemplate);
    const kind = found?.kinds[argument];
    return kind === undefined ? undefined : argumentValues(this.#core, kind, value);
  }

  /** The templates whose operation this caller may call (its plan's domains, its key's scopes, beta). */
  async #readable(admission: Admission): Promise<readonly DataTemplate[]> {
    const callable = new Set<AnyOperation>(await this.#core.callableOperations(admission.caller));
    return DATA_TEMPLATES.filter((t) => callable.has(t.operation));
  }
}

/** The URI of one resource of the named template. */
export function uriOf(name: string, variables: Readonly<Record<string, string>>): string {
  const found = DATA_TEMPLATES.find((t) => t.name === name);
  if (found === undefined) throw new Error(`No resource template named ${name}`);
  return found.uri.expand(variables);
}
