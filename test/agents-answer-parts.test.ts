/**
 * The parts of a company agent's answer under `acceptedOutputModes` (src/agents/tasks/wire.ts), where the
 * demo deployments cannot reach: a brief whose media type is only known once the skill ran, and that the client
 * does not accept beside the data and text it declined too, is refused naming each type the answer had once.
 */
import { describe, expect, it } from 'vitest';
import type { SkillAnswer } from '../src/agents/skill.js';
import { answerParts, messageResult } from '../src/agents/tasks/wire.js';

const BRIEF: SkillAnswer = {
  data: { id: 'brief' },
  text: 'A brief.',
  reference: { url: 'https://example.test/brief', mediaType: 'text/plain', filename: 'brief.txt' },
};

describe('a company agent answer under acceptedOutputModes', () => {
  it('gives the parts of the accepted types, the reference among them', () => {
    expect(answerParts(BRIEF, ['text/plain']).map((p) => p.mediaType)).toEqual(['text/plain', 'text/plain']);
    expect(answerParts(BRIEF, []).map((p) => p.mediaType)).toEqual(['text/plain', 'application/json', 'text/plain']);
  });

  it('refuses an answer left with no part (-32005), naming each of its media types once', () => {
    let error: any;
    try {
      messageResult('get_artifact', BRIEF, undefined, ['text/markdown']);
    } catch (e) {
      error = e;
    }
    expect(error?.code).toBe(-32005);
    expect(error.message).toContain('The skill get_artifact answers in text/plain or application/json;');
  });
});
