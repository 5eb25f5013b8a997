import { Type } from '@sinclair/typebox';
import { WordsText } from '../../core/schemas.js';

export const LOOKUP_DEFAULT = 10;
export const LOOKUP_MAX = 50;

export const LookupText = (description: string) => WordsText(description);

/** Lookups answer a short ranked list, not pages: their own bounds. */
export const LookupLimit = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: LOOKUP_MAX,
    default: LOOKUP_DEFAULT,
    description: `Most entries to return, 1 to ${LOOKUP_MAX} (default ${LOOKUP_DEFAULT}).`,
  }),
);
