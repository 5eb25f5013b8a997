/**
 * The rules every input value obeys before the schema is checked, the same on every channel (docs/api.md, Input
 * values):
 *
 * - text is well-formed Unicode without control characters: a NUL, a line feed or a lone UTF-16 surrogate in any
 *   string is refused with 422 naming the field, never stripped (what was asked is not what would be searched);
 * - REST values arrive as text and are read strictly by the schema's type: an integer or a number in plain
 *   decimal notation (no `0x10`, `1e1`, padding, `+5`, `Infinity`, empty text), a boolean as `true` or `false`;
 *   an array parameter is repeated (`?municipality=a&municipality=b`), a scalar is given once;
 * - JSON values (A2A, MCP) keep their types; one value given to a list parameter is a list of one, as on REST, and a
 *   list given to a one-value parameter is refused naming the form it takes;
 * - an integer is within the range a JSON number holds exactly (±2^53−1) on every channel: a larger id cannot
 *   name anything and must not be rounded into one that does (nor read as Infinity); a number is finite.
 */
import type { TSchema } from '@sinclair/typebox';
import type { FieldError } from '../lib/errors.js';
import { type JsonSchema, plainSchema } from './json-schema.js';

/** Unicode control characters (general category Cc): C0, DEL and C1. */
const CONTROL = /\p{Cc}/u;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

export const TEXT_RULE =
  'must be Unicode text without control characters (U+0000–U+001F, U+007F–U+009F) or lone surrogates';
export const FINITE_NUMBER = 'must be a finite number';

/** Why a string is not acceptable text, or undefined when it is. */
export function textProblem(value: string): string | undefined {
  return CONTROL.test(value) || LONE_SURROGATE.test(value) ? TEXT_RULE : undefined;
}

type Properties = Readonly<Record<string, JsonSchema>>;
const propertiesOf = new WeakMap<TSchema, Properties>();

function properties(schema: TSchema): Properties {
  let props = propertiesOf.get(schema);
  if (props === undefined) {
    props = plainSchema(schema).properties ?? {};
    propertiesOf.set(schema, props);
  }
  return props;
}

/**
 * Checks the text and integer rules on every value of `input` (both encodings), and for text input (REST) reads
 * each value as its parameter's type, in place. Returns the offending fields; a field listed here is left as it
 * came, for the schema to report nothing more about it.
 */
export function readInputValues(schema: TSchema, input: Record<string, unknown>, text: boolean): FieldError[] {
  const props = properties(schema);
  const errors: FieldError[] = [];
  for (const name of Object.keys(input)) {
    if (textProblem(name) !== undefined) {
      errors.push({ field: JSON.stringify(name).slice(1, -1), message: 'is not a parameter of this operation' });
      continue;
    }
    const property = Object.hasOwn(props, name) ? props[name] : undefined;
    if (property === undefined) continue; // an unknown parameter: the schema names it
    const raw = input[name];
    const problem = firstTextProblem(raw);
    if (problem !== undefined) {
      errors.push({ field: name, message: problem });
      continue;
    }
    const read = text ? readText(property, raw) : readJson(property, raw);
    if ('error' in read) {
      errors.push({ field: name, message: read.error });
      continue;
    }
    const range = numberProblem(property, read.value);
    if (range !== undefined) {
      errors.push({ field: name, message: range });
      continue;
    }
    input[name] = read.value;
  }
  return errors;
}

/** The first text problem in a value, looking into arrays and objects (a wrong type is the schema's to report). */
function firstTextProblem(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return textProblem(value);
  if (value === null || typeof value !== 'object' || depth > 8) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const problem = textProblem(key) ?? firstTextProblem(item, depth + 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

type Read = { value: unknown } | { error: string };

/**
 * A REST value (a string, or repeated: an array of strings) read as the parameter's type. A parameter whose schema
 * is a choice (`anyOf`: one value or a list) is read as the list when repeated, else as the one value.
 */
function readText(property: JsonSchema, raw: unknown): Read {
  const members = property.anyOf ?? [property];
  const list = members.find((m) => m.type === 'array');
  const single = members.find((m) => m.type !== 'array');
  if (list !== undefined && (Array.isArray(raw) || single === undefined)) {
    const values: unknown[] = [];
    for (const item of Array.isArray(raw) ? raw : [raw]) {
      const read = readScalar(list.items ?? {}, item);
      if ('error' in read) return read;
      values.push(read.value);
    }
    return { value: values };
  }
  if (Array.isArray(raw)) return { error: 'must be given once' };
  return readScalar(single ?? property, raw);
}

/**
 * A JSON value (A2A, MCP) as the parameter's form: one value where a list is expected is the list of that one value,
 * as REST reads a parameter given once (`"municipality": "porto"` is `["porto"]`); a list where one value is expected
 * is refused naming the form (never cut to its first value: which one was meant?).
 */
function readJson(property: JsonSchema, raw: unknown): Read {
  const members = property.anyOf ?? [property];
  const takesList = members.some((m) => m.type === 'array');
  const takesOne = members.some((m) => m.type !== 'array');
  if (takesList && !takesOne && isScalar(raw)) return { value: [raw] };
  if (takesOne && !takesList && Array.isArray(raw)) return { error: oneValueExpected(property) };
  return { value: raw };
}

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

const ONE_OF_TYPE: Readonly<Record<string, string>> = {
  string: 'one string',
  integer: 'one integer',
  number: 'one number',
  boolean: 'true or false',
  object: 'one object',
};

/** "must be one string, not a list: The municipality (code, slug or name) whose entity to list." */
function oneValueExpected(property: JsonSchema): string {
  const type = typeof property.type === 'string' ? ONE_OF_TYPE[property.type] : undefined;
  const form = typeof property.description === 'string' ? `: ${property.description}` : '';
  return `must be ${type ?? 'one value'}, not a list${form}`;
}

function readScalar(property: JsonSchema, raw: unknown): Read {
  if (typeof raw !== 'string') return { value: raw };
  switch (property.type) {
    case 'integer':
      return INTEGER.test(raw) ? { value: Number(raw) } : { error: 'must be an integer in decimal digits (e.g. 20)' };
    case 'number':
      return DECIMAL.test(raw) ? { value: Number(raw) } : { error: 'must be a number in decimal notation (e.g. 0.5)' };
    case 'boolean':
      return raw === 'true' || raw === 'false' ? { value: raw === 'true' } : { error: 'must be true or false' };
    default:
      return { value: raw };
  }
}

/**
 * "must be an integer from 1 to 9007199254740991": the parameter's own bounds (an id's minimum 1), within what a
 * JSON number holds exactly.
 */
export function integerRange(integer: JsonSchema): string {
  const bound = (value: unknown, limit: number) =>
    typeof value === 'number' && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? value : limit;
  const low = bound(integer.minimum, -Number.MAX_SAFE_INTEGER);
  return `must be an integer from ${low} to ${bound(integer.maximum, Number.MAX_SAFE_INTEGER)}`;
}

/**
 * An integer parameter holds a safe integer and a number parameter a finite number, whatever the channel: a JSON
 * `1e400` or 309 decimal digits read as Infinity, which the schema's `integer` type and its bounds would let pass.
 */
function numberProblem(property: JsonSchema, value: unknown): string | undefined {
  const scalars = (property.anyOf ?? [property]).map((m) => (m.type === 'array' ? (m.items ?? {}) : m));
  const types = scalars.map((m) => m.type);
  const values = (Array.isArray(value) ? value : [value]).filter((v): v is number => typeof v === 'number');
  const integer = scalars.find((m) => m.type === 'integer');
  if (
    integer !== undefined &&
    values.some((v) => !Number.isSafeInteger(v) && (Number.isInteger(v) || !Number.isFinite(v)))
  ) {
    return integerRange(integer);
  }
  if (types.includes('number') && values.some((v) => !Number.isFinite(v))) return FINITE_NUMBER;
  return undefined;
}
