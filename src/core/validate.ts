/**
 * Input validation, in one place for every channel. REST query strings arrive as text and are coerced to
 * the schema's types; JSON channels (A2A, MCP) send typed JSON and are validated strictly, without coercion.
 */
import type { TObject } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ApiError, type FieldError } from '../lib/errors.js';

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export type InputEncoding = 'text' | 'json';

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    useDefaults: true,
    coerceTypes: coerce ? 'array' : false,
    strict: false,
  });
  addFormats(ajv, ['date', 'date-time']);
  return ajv;
}

const ajvs: Record<InputEncoding, Ajv> = { text: makeAjv(true), json: makeAjv(false) };
const compiled: Record<InputEncoding, WeakMap<TObject, ValidateFunction>> = { text: new WeakMap(), json: new WeakMap() };

export function compileInput(schema: TObject, encoding: InputEncoding): ValidateFunction {
  let validate = compiled[encoding].get(schema);
  if (!validate) {
    validate = ajvs[encoding].compile(schema);
    compiled[encoding].set(schema, validate);
  }
  return validate;
}

/** Validates (and, for text input, coerces and fills defaults in) `input`; throws `validation-error`. */
export function validateInput(schema: TObject, input: Record<string, unknown>, encoding: InputEncoding): void {
  const validate = compileInput(schema, encoding);
  if (!validate(input)) {
    const errors = dedupe((validate.errors ?? []).map(toFieldError));
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
      return { field: path, message: `must be a valid ${error.params.format === 'date' ? 'date (YYYY-MM-DD)' : 'RFC 3339 date-time'}` };
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
