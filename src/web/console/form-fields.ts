/**
 * The one reader of the fields of the console's forms and queries, the OAuth consent page's included: every
 * field a handler reads comes through it. A field is one string; a field sent twice (`email=a&email=b`) or a
 * value that is not text (a JSON body's object) is refused with the console's 400 page before a handler sees it.
 * Only a field made to repeat (checkboxes of one name) is read as a list.
 */
import type { FastifyRequest } from 'fastify';
import { ConsoleRefusal } from './refusal.js';

export class FormFields {
  readonly #fields: Readonly<Record<string, unknown>>;

  constructor(source: unknown) {
    this.#fields =
      source !== null && typeof source === 'object' && !Array.isArray(source)
        ? (source as Record<string, unknown>)
        : {};
  }

  /** The field's text, '' when it is absent. */
  text(name: string): string {
    return this.optional(name) ?? '';
  }

  /** The field's text, undefined when it is absent. */
  optional(name: string): string | undefined {
    const value = this.#raw(name);
    if (value === undefined || typeof value === 'string') return value;
    throw refusal(name, value);
  }

  /** The values of a field that may repeat; none when it is absent. */
  list(name: string): string[] {
    const value = this.#raw(name);
    if (value === undefined) return [];
    if (typeof value === 'string') return [value];
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
    throw refusal(name, value);
  }

  #raw(name: string): unknown {
    return Object.hasOwn(this.#fields, name) ? this.#fields[name] : undefined;
  }
}

/** The fields of the request's form body. */
export function formOf(request: FastifyRequest): FormFields {
  return new FormFields(request.body);
}

/** The fields of the request's query string. */
export function queryOf(request: FastifyRequest): FormFields {
  return new FormFields(request.query);
}

function refusal(name: string, value: unknown): ConsoleRefusal {
  const how = Array.isArray(value) ? 'more than once' : 'as something other than text';
  return new ConsoleRefusal(400, `The form field “${name}” was sent ${how}. Go back, reload the page and try again.`);
}
