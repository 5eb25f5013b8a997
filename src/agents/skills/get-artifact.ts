import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../core/schemas.js';
import { defineSkill } from '../skill.js';

export const getArtifact = defineSkill({
  id: 'get_artifact',
  title: 'Get a released brief',
  description:
    'One of the briefs this company has released, returned as a reference: a URL part (the brief itself, public ' +
    'while the agent is live) and a data part with its title, summary and media type. Answers at once.',
  tags: ['artifact'],
  answer: 'message',
  kind: 'read',
  channels: ['a2a'],
  referenceModes: (deployment) => deployment.spec.artifacts.filter((a) => a.released).map((a) => a.media_type),
  input: (deployment) =>
    Type.Object(
      {
        artifact_id: StringEnum(
          deployment.spec.artifacts.filter((a) => a.released).map((a) => a.id) as [string, ...string[]],
          {
            description: 'The brief: one of the released artifacts.',
          },
        ),
      },
      { additionalProperties: false },
    ),
  examples: (deployment) => deployment.spec.artifacts.filter((a) => a.released).map((a) => ({ artifact_id: a.id })),
  async handler(input, { deployment }) {
    const artifact = deployment.spec.artifacts.find((a) => a.id === input.artifact_id && a.released);
    if (!artifact) throw new Error(`artifact ${input.artifact_id} passed validation but is not released`);
    const url = `${deployment.addresses.base}/artifacts/${artifact.id}`;
    return {
      data: { id: artifact.id, title: artifact.title, summary: artifact.summary, media_type: artifact.media_type, url },
      text: `${artifact.title}: ${artifact.summary} (${url})`,
      reference: {
        url,
        mediaType: artifact.media_type,
        filename: `${artifact.id}${artifact.media_type === 'text/markdown' ? '.md' : '.txt'}`,
      },
    };
  },
});
