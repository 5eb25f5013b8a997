/**
 * SendMessage, translated: one data part `{skill, input}` in; for the data service, the operation's REST JSON
 * out as one data part of an agent message. Reading the request refuses, naming the field, everything but
 * exactly one well-formed data part; text, file and URL parts get -32005. The same reading serves every agent
 * this service hosts (the data service and each company deployment): only the skill lookup differs.
 */
import { randomUUID } from 'node:crypto';
import type { Outcome } from '../../core/execution.js';
import type { AnyOperation } from '../../core/operation.js';
import { closestName } from '../../core/validate.js';
import { ApiError, type FieldError } from '../../lib/errors.js';
import type { Json } from '../../lib/json.js';
import { isJsonContentType } from '../jsonrpc/index.js';
import { A2A_CODES, protocolError } from './errors.js';
import { CSV_MODE, JSON_MODE } from './output-modes.js';

export const MESSAGE_ID_MAX_LENGTH = 128;

export interface SkillCall<S> {
  readonly skill: S;
  readonly input: Record<string, unknown>;
  /** Echoed on the answer when the caller set one. */
  readonly contextId: string | undefined;
  /** The task this message continues, when the caller named one (the agent decides what that means). */
  readonly taskId: string | undefined;
  /** The caller's message as received (a task keeps it as its history). */
  readonly message: Json;
}

/** How SendMessage finds the skill a data part names: the skills this caller of the agent may name. */
export interface SkillLookup<P, S> {
  skill(principal: P, id: string): S | undefined;
  /** The ids `skill` knows, for the nearest one to a misspelt id in the refusal. */
  skillIds(principal: P): readonly string[];
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** ProtoJSON parsers accept the camelCase and the original snake_case name of a field. */
function field(object: Json, camel: string, snake: string): unknown {
  const value = object[camel];
  return value === undefined ? object[snake] : value;
}

function invalid(errors: FieldError[]): ApiError {
  return new ApiError('validation-error', { detail: errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors });
}

function notAccepted(what: string) {
  return protocolError(
    A2A_CODES.contentTypeNotSupported,
    'CONTENT_TYPE_NOT_SUPPORTED',
    `${what} is not accepted: send exactly one data part {"data": {"skill": …, "input": {…}}, "mediaType": ` +
      `"application/json"}.`,
  );
}

/**
 * The task a SendMessage continues (`message.taskId`, or `task_id`), read before the rest of the message: a message
 * to a task that does not exist for this caller is -32001 whatever its parts (docs/a2a.md, Errors).
 */
export function continuedTaskId(params: Json): string | undefined {
  const message = params.message;
  if (!isObject(message)) return undefined;
  const taskId = field(message, 'taskId', 'task_id');
  return typeof taskId === 'string' && taskId !== '' ? taskId : undefined;
}

/**
 * Reads `params` of SendMessage into the skill and its input. Throws an ApiError `validation-error` (-32602,
 * naming the field) or a -32005 protocol error for a non-data part.
 */
export function readSendMessage<P, S>(params: Json, skills: SkillLookup<P, S>, principal: P): SkillCall<S> {
  const message = params.message;
  if (!isObject(message))
    throw invalid([{ field: 'message', message: 'is required: an object with messageId, role and parts' }]);

  const errors: FieldError[] = [];
  const messageId = field(message, 'messageId', 'message_id');
  if (typeof messageId !== 'string' || messageId.length === 0 || !withinLength(messageId)) {
    errors.push({
      field: 'message.messageId',
      message: `must be a string of 1 to ${MESSAGE_ID_MAX_LENGTH} characters`,
    });
  }
  const role = message.role;
  if (role !== 'ROLE_USER' && role !== 1) errors.push({ field: 'message.role', message: 'must be ROLE_USER' });
  const parts = message.parts;
  if (!Array.isArray(parts) || parts.length === 0) {
    errors.push({ field: 'message.parts', message: 'must hold exactly one data part' });
  }
  if (errors.length > 0) throw invalid(errors);

  for (const part of parts as unknown[]) {
    if (!isObject(part)) continue;
    if (typeof part.text === 'string' || part.kind === 'text') throw notAccepted('A text part');
    if (part.raw !== undefined || part.file !== undefined || part.kind === 'file') throw notAccepted('A file part');
    if (part.url !== undefined) throw notAccepted('A URL part');
  }
  if ((parts as unknown[]).length !== 1) {
    throw invalid([
      { field: 'message.parts', message: `must hold exactly one data part, not ${(parts as unknown[]).length}` },
    ]);
  }
  const part = (parts as unknown[])[0];
  if (!isObject(part) || part.data === undefined) {
    throw invalid([{ field: 'message.parts[0].data', message: 'is required: {"skill": <skill id>, "input": {…}}' }]);
  }
  const mediaType = field(part, 'mediaType', 'media_type');
  if (mediaType !== undefined && mediaType !== '' && (typeof mediaType !== 'string' || !isJsonContentType(mediaType))) {
    throw notAccepted(`A part of media type ${JSON.stringify(mediaType)}`);
  }
  const data = part.data;
  if (!isObject(data)) {
    throw invalid([
      { field: 'message.parts[0].data', message: 'must be an object {"skill": <skill id>, "input": {…}}' },
    ]);
  }
  const unknown = Object.keys(data).filter((key) => !DATA_KEYS.includes(key));
  if (unknown.length > 0) throw invalid(unknown.map(unknownDataKey));
  const skillId = data.skill;
  const skill = typeof skillId === 'string' ? skills.skill(principal, skillId) : undefined;
  if (skill === undefined) {
    throw invalid([
      {
        field: 'message.parts[0].data.skill',
        message:
          typeof skillId === 'string'
            ? unknownSkill(skillId, skills.skillIds(principal))
            : 'is required: the id of a skill of the agent card',
      },
    ]);
  }
  const input = data.input ?? {};
  if (!isObject(input)) throw invalid([{ field: 'message.parts[0].data.input', message: 'must be an object' }]);

  const contextId = field(message, 'contextId', 'context_id');
  const taskId = field(message, 'taskId', 'task_id');
  return {
    skill,
    input,
    contextId: typeof contextId === 'string' && contextId !== '' ? contextId : undefined,
    taskId: typeof taskId === 'string' && taskId !== '' ? taskId : undefined,
    message,
  };
}

/**
 * The keys of a data part: the skill and its input, nothing else. Any other key is refused as REST refuses an unknown
 * parameter — a misspelt `input` would otherwise run the skill on its defaults, a parameter beside `input` would be
 * dropped (docs/a2a.md, Calling a skill).
 */
const DATA_KEYS: readonly string[] = ['skill', 'input'];

function unknownDataKey(key: string): FieldError {
  const close = closestName(key, DATA_KEYS);
  return {
    field: `message.parts[0].data.${key}`,
    message:
      close !== undefined
        ? `is not a key of the data part; did you mean \`${close}\`?`
        : "is not a key of the data part, which holds `skill` and `input` alone: the skill's parameters go inside " +
          '`input`',
  };
}

/** `unknown skill "x"`, with the id it was likely meant to be (`procurement_red_flag` → `procurement_red_flags`). */
function unknownSkill(id: string, ids: readonly string[]): string {
  const near = closestName(id, ids);
  return near === undefined
    ? `unknown skill "${id}"; the agent card lists the skills`
    : `unknown skill "${id}"; did you mean \`${near}\`?`;
}

function withinLength(id: string): boolean {
  // `length` counts UTF-16 units; only a long id needs counting by characters.
  return id.length <= MESSAGE_ID_MAX_LENGTH || [...id].length <= MESSAGE_ID_MAX_LENGTH;
}

interface CompiledRoute {
  /** Literal path pieces around the parameters: `pieces[0] param0 pieces[1] param1 …`. */
  readonly pieces: readonly string[];
  readonly pathParams: readonly string[];
}

const compiledRoutes = new WeakMap<AnyOperation, CompiledRoute>();

function compiledRoute(operation: AnyOperation): CompiledRoute {
  let route = compiledRoutes.get(operation);
  if (route === undefined) {
    const split = operation.rest.path.split(/:([A-Za-z0-9_]+)/);
    route = { pieces: split.filter((_, i) => i % 2 === 0), pathParams: split.filter((_, i) => i % 2 === 1) };
    compiledRoutes.set(operation, route);
  }
  return route;
}

/** `application/x-www-form-urlencoded`, byte for byte as URLSearchParams writes it. */
function formEncode(value: string): string {
  if (/^[A-Za-z0-9*._-]*$/.test(value)) return value;
  return encodeURIComponent(value)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/**
 * The REST route (path and query) that answers the same JSON for this input: path parameters in the path, the
 * others as the query, arrays repeated; the same URL as the docs' `exampleRequestUrl`, computed without a URL
 * object (this runs on every SendMessage).
 */
export function restRoute(operation: AnyOperation, input: Record<string, unknown>): string {
  const { pieces, pathParams } = compiledRoute(operation);
  let url = pieces[0];
  for (let i = 0; i < pathParams.length; i++) url += encodeURIComponent(String(input[pathParams[i]])) + pieces[i + 1];
  let separator = '?';
  for (const name in input) {
    const value = input[name];
    if (value === undefined || pathParams.includes(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      url += `${separator}${formEncode(name)}=${formEncode(String(item))}`;
      separator = '&';
    }
  }
  return url;
}

/**
 * A CSV answer has no room for the page's `next_cursor` and `has_more` (REST sends them as headers): the message's
 * metadata carries them, so that a CSV reader can page as a JSON one does (docs/a2a.md, Output modes).
 */
function paging(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return '';
  const page = value as { next_cursor?: unknown; has_more?: unknown };
  let members = '';
  if (page.next_cursor !== undefined) members += `,"next_cursor":${JSON.stringify(page.next_cursor)}`;
  if (page.has_more !== undefined) members += `,"has_more":${JSON.stringify(page.has_more)}`;
  return members;
}

/**
 * `result` of SendMessage as UTF-8 bytes, built around the core's serialised answer (no parse, no re-stringify,
 * no re-encoding of the cached bytes):
 * `{"message": {messageId, role: ROLE_AGENT, parts: [one part], metadata: {skill, rest}}}`. The part is the JSON as a
 * data part, or for a `text/csv` answer (output-modes.ts) the CSV as a text part of that media type.
 */
export function messageResultBytes(call: SkillCall<AnyOperation>, outcome: Outcome, mode = JSON_MODE): Buffer {
  const csv = mode === CSV_MODE;
  const wrap = !csv && Array.isArray(outcome.value);
  const context = call.contextId === undefined ? '' : `,"contextId":${JSON.stringify(call.contextId)}`;
  const route = restRoute(call.skill, call.input);
  const rest = csv ? `${route}${route.includes('?') ? '&' : '?'}format=csv` : route;
  const pageMembers = csv ? paging(outcome.value) : '';
  const metadata = `{"skill":${JSON.stringify(call.skill.name)},"rest":${JSON.stringify(rest)}${pageMembers}}`;
  const head = Buffer.from(
    `{"message":{"messageId":"${randomUUID()}"${context},"role":"ROLE_AGENT",` +
      `"parts":[{${csv ? '"text":' : '"data":'}${wrap ? '{"items":' : ''}`,
  );
  const body = csv ? Buffer.from(JSON.stringify(outcome.body.toString('utf8'))) : outcome.body;
  const tail = Buffer.from(`${wrap ? '}' : ''},"mediaType":"${mode}"}],"metadata":${metadata}}}`);
  return Buffer.concat([head, body, tail], head.length + body.length + tail.length);
}
