import { ApiError } from '../../lib/errors.js';
import { findSignalType, SIGNAL_TYPES } from '../../signals/catalogue.js';
import { signalTypes } from './signal-types.js';

/**
 * A family's types are named in the message up to this many; a longer list (integrity's) is left to signal_types,
 * which the message points to, so that the message stays a sentence.
 */
const TYPES_NAMED = 8;

/**
 * 422 naming `type` when `type` and `family` are both given and the type is of another family (docs/signals.md,
 * "The catalogue"). Both are checked against the catalogue by the schema already; together they could only ever
 * match nothing, which is a mistake to say, not an empty list to answer. One check for every channel and store.
 */
export function checkTypeInFamily(type: string | undefined, family: string | undefined): void {
  if (type === undefined || family === undefined) return;
  const typeFamily = findSignalType(type)?.family;
  if (typeFamily === undefined || typeFamily === family) return;
  const familyTypes = SIGNAL_TYPES.filter((t) => t.family === family).map((t) => t.key);
  const theirs =
    familyTypes.length <= TYPES_NAMED
      ? `the types of \`${family}\` are ${familyTypes.join(', ')}`
      : `\`${family}\` has ${familyTypes.length} types`;
  const message =
    `\`${type}\` is a type of the family \`${typeFamily}\`, not of \`${family}\` ` +
    `(${theirs}): give family \`${typeFamily}\` or leave \`family\` out`;
  throw new ApiError('validation-error', {
    detail: `type: ${message}.`,
    errors: [{ field: 'type', message }],
    see: { operation: signalTypes, does: 'lists every type with its family' },
  });
}
