/**
 * Input validation, in one place for every channel. REST query strings arrive as text and are read strictly as
 * the schema's types (input-values.ts); JSON channels (A2A, MCP) send typed JSON. Both then meet the same rules
 * for text and integers, and the same schema, without coercion.
 */
import type { TObject } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isDate, isDateTime } from '../lib/calendar.js';
import { ApiError, type FieldError } from '../lib/errors.js';
import { readInputValues } from './input-values.js';

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
    const schemaErrors = (validate.errors ?? []).map(toFieldError).filter((e) => !reported.has(e.field));
    const errors = dedupe([...valueErrors, ...schemaErrors]);
    throw new ApiError('validation-error', {
      detail: errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      errors,
    });
  }
}

function toFieldError(error: ErrorObject): FieldError {
  const path = error.instancePath
    .replace(/^\//, '')
    .replace(/\/\d+$/, '')
    .replace(/\//g, '.');
  switch (error.keyword) {
    case 'required':
      return { field: String(error.params.missingProperty), message: 'is required' };
    case 'additionalProperties':
      return { field: String(error.params.additionalProperty), message: 'is not a parameter of this operation' };
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

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const k = `${e.field}\n${e.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
