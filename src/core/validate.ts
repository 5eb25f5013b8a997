/**
 * Input validation, in one place for every channel. REST query strings arrive as text and are read strictly as
 * the schema's types (input-values.ts); JSON channels (A2A, MCP) send typed JSON. Both then meet the same rules
 * for text and integers, and the same schema, without coercion of types (one value given to a list parameter is a
 * list of one on every channel, as REST reads it: input-values.ts).
 */
import type { TObject } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isDate, isDateTime } from '../lib/calendar.js';
import { ApiError, type FieldError } from '../lib/errors.js';
import { bestMatch } from '../lib/name-match.js';
import { readInputValues } from './input-values.js';
import { plainSchema } from './json-schema.js';

export type InputEncoding = 'text' | 'json';

const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: false });
// The calendar's own reader (lib/calendar.ts), so that what validation accepts is what the handlers can read.
ajv.addFormat('date', { type: 'string', validate: isDate });
ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
const compiled = new WeakMap<TObject, ValidateFunction>();

/** The schema's validator; input of either encoding meets it once its values are read (`validateInput`). */
export function compileInput(schema: TObject, _encoding: InputEncoding = 'json'): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * Reads (text input: as the schema's types), checks and fills defaults in `input`; throws `validation-error`
 * naming every offending field.
 */
export function validateInput(schema: TObject, input: Record<string, unknown>, encoding: InputEncoding): void {
  const valueErrors = readInputValues(schema, input, encoding === 'text');
  const validate = compileInput(schema);
  if (!validate(input) || valueErrors.length > 0) {
    const reported = new Set(valueErrors.map((e) => e.field));
    const schemaErrors = plainErrors(validate.errors ?? [])
      .map((e) => toFieldError(e, schema, input))
      .filter((e) => !reported.has(e.field));
    const errors = dedupe([...valueErrors, ...schemaErrors]);
    throw new ApiError('validation-error', {
      detail: errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      errors,
    });
  }
}

/**
 * The errors to tell, for a choice (`anyOf`: one value or a list of them): ajv reports every branch and then the
 * choice ("must be string; must NOT have fewer than 1 items; must match a schema in anyOf"). When the value is of the
 * type of one branch, that branch's errors are what is wrong with it (`[]`: give at least one); otherwise the value
 * is of none of their types, said once ("must be a string or a list"). Where it fits several, each one's errors.
 */
function plainErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const choices = errors.filter((e) => e.keyword === 'anyOf');
  if (choices.length === 0) return [...errors];
  const inChoice = (e: ErrorObject, choice: ErrorObject) =>
    e.instancePath.startsWith(choice.instancePath) && e.schemaPath.startsWith(`${choice.schemaPath}/`);
  const told: ErrorObject[] = errors.filter((e) => e.keyword !== 'anyOf' && !choices.some((c) => inChoice(e, c)));
  for (const choice of choices) {
    const branches = new Map<string, ErrorObject[]>();
    for (const e of errors.filter((e) => inChoice(e, choice))) {
      const branch = e.schemaPath.slice(choice.schemaPath.length + 1).split('/')[0];
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    const wrongType = (e: ErrorObject) => e.keyword === 'type' && e.instancePath === choice.instancePath;
    const fitting = [...branches.values()].filter((branch) => !branch.some(wrongType));
    if (fitting.length > 0) told.push(...fitting.flat());
    else {
      const types = [...branches.values()].flatMap((branch) => branch.filter(wrongType).map((e) => e.params.type));
      told.push({ ...choice, keyword: 'type', params: { type: types.join(',') } });
    }
  }
  return told;
}

/** What the type names of JSON Schema are called in a message. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

function toFieldError(error: ErrorObject, schema: TObject, input: Record<string, unknown>): FieldError {
  const path = error.instancePath
    .replace(/^\//, '')
    .replace(/\/\d+$/, '')
    .replace(/\//g, '.');
  const field = path || '(input)';
  const ofItem = /\/\d+$/.test(error.instancePath);
  const limit = Number(error.params.limit);
  switch (error.keyword) {
    case 'required':
      return { field: String(error.params.missingProperty), message: 'is required' };
    case 'additionalProperties': {
      const name = String(error.params.additionalProperty);
      return { field: name, message: `is not a parameter of this operation${meantInstead(name, schema)}` };
    }
    case 'enum':
      return { field, message: `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}` };
    case 'format':
      return {
        field,
        message: `must be a valid ${error.params.format === 'date' ? 'date (YYYY-MM-DD)' : 'RFC 3339 date-time'}`,
      };
    case 'type': {
      const types = String(error.params.type)
        .split(',')
        .map((type) => TYPE_NAMES[type] ?? type);
      return { field, message: `${ofItem ? 'each value must' : 'must'} be ${types.join(' or ')}` };
    }
    case 'uniqueItems': {
      const list = valueAt(input, error.instancePath);
      const twice = Array.isArray(list) ? list[Number(error.params.j)] : undefined;
      return { field, message: `\`${String(twice)}\` is given twice` };
    }
    case 'minItems':
      return { field, message: limit === 1 ? 'give at least one' : `give at least ${limit}` };
    case 'maxItems':
      return { field, message: `give at most ${limit}` };
    case 'minLength':
      if (ofItem)
        return {
          field,
          message: limit === 1 ? 'has an empty value' : `each value must have at least ${limit} characters`,
        };
      return { field, message: limit === 1 ? 'must not be empty' : `must have at least ${limit} characters` };
    case 'maxLength':
      return { field, message: `${ofItem ? 'each value must' : 'must'} have at most ${limit} characters` };
    case 'pattern': {
      const value = valueAt(input, error.instancePath);
      // An empty text breaks minLength too: the same words, told once (dedupe).
      if (value === '') return { field, message: ofItem ? 'has an empty value' : 'must not be empty' };
      if (typeof value === 'string' && value.trim() === '') {
        return { field, message: ofItem ? 'has a blank value' : 'must not be blank' };
      }
      // The form a pattern asks for is what the parameter's description says ("A tax number: Portuguese (…, 9
      // digits) or foreign…"), not the regular expression.
      const described = schemaAt(schema, error.schemaPath)?.description;
      const form = typeof described === 'string' ? `: ${described.replace(/\.$/, '')}` : '';
      return { field, message: `${ofItem ? 'each value is' : 'is'} not in the expected form${form}` };
    }
    default:
      return { field, message: error.message ?? 'is invalid' };
  }
}

/** The (sub)schema a keyword of an error belongs to: `#/properties/nif/pattern` → the schema of `nif`. */
function schemaAt(schema: TObject, schemaPath: string): Record<string, unknown> | undefined {
  const node = at(schema, schemaPath.split('/').slice(1, -1));
  return node !== null && typeof node === 'object' ? (node as Record<string, unknown>) : undefined;
}

/** The value at an ajv instance path (`/group_by`, `/municipality/1`) of the input. */
function valueAt(input: Record<string, unknown>, instancePath: string): unknown {
  return at(input, instancePath.split('/').slice(1));
}

/** What a JSON Pointer's segments (`~1` for `/`, `~0` for `~`) lead to from `root`; undefined past a leaf. */
function at(root: unknown, segments: readonly string[]): unknown {
  let node = root;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/**
 * For a misspelt parameter (`types`, `municipio`, `limt`), the one it was likely meant to be; else the operation's
 * parameters, so that the caller (a person or an agent) can correct the request without looking it up.
 */
function meantInstead(field: string, schema: TObject): string {
  const names = Object.keys(plainSchema(schema).properties ?? {});
  if (names.length === 0) return ': it takes none';
  const close = closestName(field, names);
  return close !== undefined ? `; did you mean \`${close}\`?` : `; it takes: ${names.join(', ')}`;
}

/** The name a misspelt one was likely meant to be (`tyep` → `type`, `inptu` → `input`), if any is close. */
export function closestName(field: string, names: readonly string[]): string | undefined {
  const close = names
    .map((name) => ({ name, match: bestMatch(field, [name]) }))
    .filter((c) => c.match !== undefined && c.match.match !== 'contains')
    .sort((a, b) => (b.match?.score ?? 0) - (a.match?.score ?? 0));
  return close[0]?.name;
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const k = `${e.field}\n${e.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
