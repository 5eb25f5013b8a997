/**
 * Tasks and messages of the company agents in A2A 1.0 ProtoJSON: `TASK_STATE_*` names, camelCase fields,
 * timestamps in RFC 3339 with milliseconds. A completed task carries one artifact with two parts: the skill's
 * typed answer (a data part) and a readable text part; a failed, rejected or canceled one says why in its status
 * message. Only the parts of a media type the caller accepted are given (SendMessage's `acceptedOutputModes`,
 * channels/a2a/output-modes.ts).
 */
import { randomUUID } from 'node:crypto';
import { admitsMode, contentTypeNotSupported, JSON_MODE, TEXT_MODE } from '../../channels/a2a/output-modes.js';
import type { Json } from '../../lib/json.js';
import type { AgentTaskRecord } from '../../store/agent-records.js';
import type { SkillAnswer } from '../skill.js';

/** The media types of every answer's parts (a skill with a reference adds its own): the skills' output modes. */
export const ANSWER_MODES: readonly string[] = [JSON_MODE, TEXT_MODE];

/** The answer's parts that `accepted` admits (every part when it names none). */
export function answerParts(answer: SkillAnswer, accepted: readonly string[] = []): Json[] {
  const parts: Json[] = [
    { data: answer.data, mediaType: JSON_MODE },
    { text: answer.text, mediaType: TEXT_MODE },
  ];
  if (answer.reference)
    parts.unshift({
      url: answer.reference.url,
      mediaType: answer.reference.mediaType,
      filename: answer.reference.filename,
    });
  return parts.filter((part) => admitsMode(accepted, part.mediaType as string));
}

/**
 * `{"message": …}`: the answer of a skill that answers at once, in the parts `accepted` admits. The skill's output
 * modes were checked before it ran; a reference's media type is known only after, so an answer left with no part
 * is refused the same way (-32005).
 */
export function messageResult(
  skill: string,
  answer: SkillAnswer,
  contextId: string | undefined,
  accepted: readonly string[] = [],
): string {
  const parts = answerParts(answer, accepted);
  if (parts.length === 0) {
    throw contentTypeNotSupported(accepted, [...new Set(answerParts(answer).map(mediaTypeOf))], skill);
  }
  return JSON.stringify({
    message: {
      messageId: randomUUID(),
      ...(contextId === undefined ? {} : { contextId }),
      role: 'ROLE_AGENT',
      parts,
      metadata: { skill },
    },
  });
}

function mediaTypeOf(part: Json): string {
  return part.mediaType as string;
}

export interface TaskView {
  /** Omit `history` (0), or keep at most this many messages; undefined keeps all. */
  readonly historyLength?: number;
  readonly includeArtifacts?: boolean;
}

export function taskJson(task: AgentTaskRecord, view: TaskView = {}): Json {
  const status: Json = { state: `TASK_STATE_${task.state}`, timestamp: task.updated_at };
  if (task.error !== null) {
    const error = JSON.parse(task.error) as { reason: string; detail: string };
    status.message = {
      messageId: `${task.id}-status`,
      contextId: task.context_id,
      taskId: task.id,
      role: 'ROLE_AGENT',
      parts: [
        { text: error.detail, mediaType: 'text/plain' },
        { data: error, mediaType: 'application/json' },
      ],
    };
  } else if (task.state === 'CANCELED') {
    status.message = {
      messageId: `${task.id}-status`,
      contextId: task.context_id,
      taskId: task.id,
      role: 'ROLE_AGENT',
      parts: [{ text: 'Canceled at the caller’s request.', mediaType: 'text/plain' }],
    };
  }
  const json: Json = { id: task.id, contextId: task.context_id, status };
  // The parts its caller accepted when it sent the message, whoever reads it and however (SendMessage, GetTask…).
  const accepted = task.accepted_output_modes === null ? [] : (JSON.parse(task.accepted_output_modes) as string[]);
  const parts = task.result === null ? [] : answerParts(JSON.parse(task.result) as SkillAnswer, accepted);
  if (view.includeArtifacts !== false && parts.length > 0) {
    json.artifacts = [{ artifactId: `${task.id}-result`, name: task.skill, parts }];
  }
  if (view.historyLength !== 0) {
    const message = JSON.parse(task.message) as Json;
    json.history = [{ ...message, contextId: task.context_id, taskId: task.id }];
  }
  json.metadata = { skill: task.skill };
  return json;
}
