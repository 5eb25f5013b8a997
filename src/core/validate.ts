/**
 * Input validation, in one place for every channel. REST query strings arrive as text and are read strictly as
 * the schema's types (input-values.ts); JSON channels (A2A, MCP) send typed JSON. Both then meet the same rules
 * for text and integers, and the same schema, without coercion.
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
    const schemaErrors = (validate.errors ?? [])
      .map((e) => toFieldError(e, schema))
      .filter((e) => !reported.has(e.field));
    const errors = dedupe([...valueErrors, ...schemaErrors]);
    throw new ApiError('validation-error', {
      detail: errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      errors,
    });
  }
}

function toFieldError(error: ErrorObject, schema: TObject): FieldError {
  const path = error.instancePath
    .replace(/^\//, '')
    .replace(/\/\d+$/, '')
    .replace(/\//g, '.');
  switch (error.keyword) {
    case 'required':
      return { field: String(error.params.missingProperty), message: 'is required' };
    case 'additionalProperties': {
      const field = String(error.params.additionalProperty);
      return { field, message: `is not a parameter of this operation${meantInstead(field, schema)}` };
    }
    case 'enum':
      return { field: path, message: `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}` };
    case 'format':
      return {
        field: path,
        message: `must be a valid ${error.params.format === 'date' ? 'date (YYYY-MM-DD)' : 'RFC 3339 date-time'}`,
      };
    default:
      return { field: path || '(input)', message: error.message ?? 'is invalid' };
  }
}

/**
 * For a misspelt parameter (`types`, `municipio`, `limt`), the one it was likely meant to be; else the operation's
 * parameters, so that the caller (a person or an agent) can correct the request without looking it up.
 */
function meantInstead(field: string, schema: TObject): string {
  const names = Object.keys(plainSchema(schema).properties ?? {});
  if (names.length === 0) return ': it takes none';
  const close = names
    .map((name) => ({ name, match: bestMatch(field, [name]) }))
    .filter((c) => c.match !== undefined && c.match.match !== 'contains')
    .sort((a, b) => (b.match?.score ?? 0) - (a.match?.score ?? 0));
  return close.length > 0 ? `; did you mean \`${close[0].name}\`?` : `; it takes: ${names.join(', ')}`;
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
