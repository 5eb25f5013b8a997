/**
 * Schemas shared by many operations: paging, municipality references, dates, the page envelope.
 * Written with TypeBox so that one schema gives the TypeScript type, the validator, OpenAPI and tool schemas.
 */
import { type TSchema, Type } from '@sinclair/typebox';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

export const Cursor = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Opaque position returned as `next_cursor` by the previous page.',
});

export const Limit = Type.Integer({
  minimum: 1,
  maximum: MAX_LIMIT,
  default: DEFAULT_LIMIT,
  description: `Page size, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`,
});

export const Paging = { cursor: Type.Optional(Cursor), limit: Type.Optional(Limit) };

export const DateString = Type.String({ format: 'date', description: 'A date, YYYY-MM-DD.' });

/**
 * Words a person typed to find something (`q`): not empty and not blank — a space alone found everything while an
 * empty text was refused — and at most 200 characters.
 */
export const WordsText = (description: string) =>
  Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description });

export const MunicipalityRef = Type.String({
  minLength: 1,
  maxLength: 100,
  description:
    "The service's 4-digit municipality code (e.g. `1106`), its slug (e.g. `lisboa`) or its name, case and accents " +
    'ignored (`Guimarães`, `guimaraes`).',
  examples: ['1106', 'vila-nova-de-gaia', 'Guimarães'],
});

/**
 * A string enumeration as a plain JSON Schema `enum` (not TypeBox's union of literals): one clear
 * validation message, and the `enum` that OpenAPI, tool schemas and card schemas show.
 */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * On every record that holds data (docs/data.md, "Real and synthetic data"): true when it is, or derives from,
 * data the demo generator made up; false on real data. `sources` lists where the data comes from.
 */
export const Synthetic = Type.Boolean({
  description: 'true: generated demo data (synthetic, not real); false: real data from its source. See `sources`.',
});

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export function Page<T extends TSchema>(item: T, name: string) {
  return Type.Object(
    {
      items: Type.Array(item),
      next_cursor: Type.Optional(Nullable(Type.String({ description: 'Pass as `cursor` to get the next page.' }))),
      has_more: Type.Optional(Type.Boolean({ default: false })),
    },
    { title: `Page of ${name}` },
  );
}
