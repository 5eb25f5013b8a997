/**
 * `configuration.acceptedOutputModes` of SendMessage: the media types the client accepts for the answer's parts
 * (A2A 1.0 `SendMessageConfiguration`; agents tailor their output to it). Empty or absent means any. The answer is in
 * the first media type the skill offers that the client accepts; when it accepts none of them, the call is refused
 * with ContentTypeNotSupportedError (-32005) before anything runs or is charged (docs/a2a.md, Output modes).
 */
import type { Json } from '../../lib/json.js';
import { A2A_CODES, paramsError, protocolError } from './errors.js';

export const JSON_MODE = 'application/json';
export const CSV_MODE = 'text/csv';

const FIELD = 'configuration.acceptedOutputModes';

/** The accepted media types of a SendMessage (camelCase or snake_case, as ProtoJSON reads them); `[]` for any. */
export function acceptedOutputModes(params: Json): readonly string[] {
  const configuration = params.configuration;
  if (configuration === undefined || configuration === null) return [];
  if (typeof configuration !== 'object' || Array.isArray(configuration)) {
    throw paramsError('configuration', 'must be an object');
  }
  const config = configuration as Json;
  const modes = config.acceptedOutputModes ?? config.accepted_output_modes;
  if (modes === undefined || modes === null) return [];
  if (!Array.isArray(modes) || modes.some((mode) => typeof mode !== 'string' || mediaType(mode) === '')) {
    throw paramsError(FIELD, 'must be a list of media types (e.g. ["application/json"])');
  }
  return modes as string[];
}

/**
 * The media type to answer in: the first of `offered` (the skill's, in the agent's order of preference) that
 * `accepted` admits — an exact type, `type/*` or `*\/*`, parameters and case ignored. Throws -32005 when none is.
 */
export function answerMode(accepted: readonly string[], offered: readonly string[], skill: string): string {
  if (accepted.length === 0) return offered[0];
  const ranges = accepted.map(mediaType);
  const mode = offered.find((type) => ranges.some((range) => admits(range, type)));
  if (mode !== undefined) return mode;
  throw protocolError(
    A2A_CODES.contentTypeNotSupported,
    'CONTENT_TYPE_NOT_SUPPORTED',
    `The skill ${skill} answers in ${offered.join(' or ')}${offered.length === 1 ? ' alone' : ''}; ${FIELD} ` +
      `accepts none of that (${accepted.join(', ')}).`,
    { acceptedOutputModes: accepted.join(','), outputModes: offered.join(',') },
  );
}

function mediaType(value: string): string {
  const semicolon = value.indexOf(';');
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

function admits(range: string, type: string): boolean {
  if (range === '*/*' || range === type) return true;
  return range.endsWith('/*') && type.startsWith(range.slice(0, -1));
}
