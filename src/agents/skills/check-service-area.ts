import { Type } from '@sinclair/typebox';
import { defineSkill } from '../skill.js';
import { MunicipalityInput, municipalityOf } from './inputs.js';

export const checkServiceArea = defineSkill({
  id: 'check_service_area',
  title: 'Check the service area',
  description:
    'Whether a municipality is inside the service area this company declares, and why: the municipality is listed, ' +
    'its district is listed, it is excluded, or neither. Answers at once with a message.',
  tags: ['service-area'],
  answer: 'message',
  kind: 'read',
  channels: ['a2a', 'mcp'],
  input: () => Type.Object({ municipality: MunicipalityInput }, { additionalProperties: false }),
  examples: (deployment) => [
    { municipality: deployment.spec.service_area.municipalities[0] ?? 'lisboa' },
    { municipality: 'Bragança' },
  ],
  async handler(input, { deployment, reference }) {
    const m = municipalityOf(reference, input.municipality);
    const verdict = deployment.serviceArea(m);
    return {
      data: {
        municipality: { code: m.code, slug: m.slug, name: m.name, district: m.district },
        inside: verdict.inside,
        reason: verdict.reason,
        service_area: deployment.spec.service_area,
      },
      text: verdict.explanation,
    };
  },
});
