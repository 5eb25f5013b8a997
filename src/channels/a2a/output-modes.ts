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
export const TEXT_MODE = 'text/plain';

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
  return answerModes(accepted, offered, skill)[0];
}

/**
 * Every media type of `offered` that `accepted` admits, in the order offered (all of them when `accepted` names
 * none), for an agent that answers in several parts at once. Throws -32005 when none is.
 */
export function answerModes(accepted: readonly string[], offered: readonly string[], skill: string): readonly string[] {
  const modes = offered.filter((type) => admitsMode(accepted, type));
  if (modes.length > 0) return modes;
  throw contentTypeNotSupported(accepted, offered, skill);
}

/** Whether `accepted` admits the media type `type` (an empty list admits any). */
export function admitsMode(accepted: readonly string[], type: string): boolean {
  if (accepted.length === 0) return true;
  const subject = mediaType(type);
  return accepted.some((range) => admits(mediaType(range), subject));
}

/** ContentTypeNotSupportedError (-32005): the skill answers in `offered`, of which `accepted` admits nothing. */
export function contentTypeNotSupported(accepted: readonly string[], offered: readonly string[], skill: string) {
  return protocolError(
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
