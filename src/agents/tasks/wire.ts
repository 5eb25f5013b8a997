/**
 * Tasks and messages of the company agents in A2A 1.0 ProtoJSON: `TASK_STATE_*` names, camelCase fields,
 * timestamps in RFC 3339 with milliseconds. A completed task carries one artifact with two parts: the skill's
 * typed answer (a data part) and a readable text part; a failed, rejected or canceled one says why in its status
 * message.
 */
import { randomUUID } from 'node:crypto';
import type { Json } from '../../lib/json.js';
import type { AgentTaskRecord } from '../../store/agent-records.js';
import type { SkillAnswer } from '../skill.js';

export function answerParts(answer: SkillAnswer): Json[] {
  const parts: Json[] = [
    { data: answer.data, mediaType: 'application/json' },
    { text: answer.text, mediaType: 'text/plain' },
  ];
  if (answer.reference)
    parts.unshift({
      url: answer.reference.url,
      mediaType: answer.reference.mediaType,
      filename: answer.reference.filename,
    });
  return parts;
}

/** `{"message": …}`: the answer of a skill that answers at once. */
export function messageResult(skill: string, answer: SkillAnswer, contextId: string | undefined): string {
  return JSON.stringify({
    message: {
      messageId: randomUUID(),
      ...(contextId === undefined ? {} : { contextId }),
      role: 'ROLE_AGENT',
      parts: answerParts(answer),
      metadata: { skill },
    },
  });
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
  if (view.includeArtifacts !== false && task.result !== null) {
    json.artifacts = [
      { artifactId: `${task.id}-result`, name: task.skill, parts: answerParts(JSON.parse(task.result) as SkillAnswer) },
    ];
  }
  if (view.historyLength !== 0) {
    const message = JSON.parse(task.message) as Json;
    json.history = [{ ...message, contextId: task.context_id, taskId: task.id }];
  }
  json.metadata = { skill: task.skill };
  return json;
}
