import { Type } from '@sinclair/typebox';
import { DateString } from '../../core/schemas.js';
import { fold } from '../../lib/text-match.js';
import { defineSkill } from '../skill.js';
import { addDays, daysBetween, MunicipalityInput, municipalityOf } from './inputs.js';

type Outcome = 'met' | 'not_met' | 'unknown';
interface Reason {
  criterion: 'project_type' | 'service_area' | 'area_m2' | 'lead_time';
  outcome: Outcome;
  detail: string;
}

/** A hard criterion not met rules the project out; a soft one (area, lead time) not met or unknown makes it partial. */
const HARD = new Set<Reason['criterion']>(['project_type', 'service_area']);

export const assessProjectFit = defineSkill({
  id: 'assess_project_fit',
  title: 'Assess a project against our criteria',
  description:
    'Typed project facts in (project_type, municipality, area_m2, start_by); a typed verdict out: `fit`, `partial` ' +
    'or `no_fit`, with one reason per criterion (project type accepted, inside the service area and not excluded, ' +
    'area within bounds, lead time). A project type or place we do not take gives no_fit; an area out of bounds, a ' +
    'start sooner than our lead time, or a missing area gives partial. Answers with a task.',
  tags: ['criteria'],
  answer: 'task',
  kind: 'read',
  channels: ['a2a'],
  input: (deployment) =>
    Type.Object(
      {
        project_type: Type.String({
          minLength: 1,
          maxLength: 100,
          description:
            `The kind of project. Accepted here: ` +
            `${deployment.spec.criteria.project_types.map((p) => p.type).join(', ')}.`,
        }),
        municipality: MunicipalityInput,
        area_m2: Type.Optional(
          Type.Number({ exclusiveMinimum: 0, description: 'Area of the project, square metres.' }),
        ),
        start_by: Type.Optional({ ...DateString, description: 'The latest start date wished (YYYY-MM-DD).' }),
      },
      { additionalProperties: false },
    ),
  examples: (deployment) => {
    const type = deployment.spec.criteria.project_types[0];
    const place =
      deployment.spec.service_area.municipalities[0] ?? deployment.spec.service_area.districts[0] ?? 'lisboa';
    return [
      {
        project_type: type.type,
        municipality: place,
        area_m2: type.area_m2?.min ?? deployment.spec.criteria.area_m2?.min ?? 100,
      },
    ];
  },
  async handler(input, { deployment, reference, now }) {
    const { criteria } = deployment.spec;
    const m = municipalityOf(reference, input.municipality);
    const wanted = fold(input.project_type.trim());
    const type = criteria.project_types.find((p) => p.type === wanted || fold(p.label ?? '') === wanted);
    const reasons: Reason[] = [];
    reasons.push(
      type
        ? { criterion: 'project_type', outcome: 'met', detail: `We take ${type.label ?? type.type} projects.` }
        : {
            criterion: 'project_type',
            outcome: 'not_met',
            detail:
              `We do not take "${input.project_type}" projects; we take: ` +
              `${criteria.project_types.map((p) => p.type).join(', ')}.`,
          },
    );
    const area = deployment.serviceArea(m);
    reasons.push({ criterion: 'service_area', outcome: area.inside ? 'met' : 'not_met', detail: area.explanation });

    const bounds = type?.area_m2 ?? criteria.area_m2;
    if (bounds && (bounds.min !== undefined || bounds.max !== undefined)) {
      const range = `${bounds.min ?? 0}–${bounds.max ?? '∞'} m²`;
      if (input.area_m2 === undefined) {
        reasons.push({ criterion: 'area_m2', outcome: 'unknown', detail: `No area given; we take ${range}.` });
      } else if (
        (bounds.min !== undefined && input.area_m2 < bounds.min) ||
        (bounds.max !== undefined && input.area_m2 > bounds.max)
      ) {
        reasons.push({
          criterion: 'area_m2',
          outcome: 'not_met',
          detail: `${input.area_m2} m² is outside the ${range} we take.`,
        });
      } else {
        reasons.push({
          criterion: 'area_m2',
          outcome: 'met',
          detail: `${input.area_m2} m² is within the ${range} we take.`,
        });
      }
    }

    const today = now.toISOString().slice(0, 10);
    const leadDays = type?.lead_time_days ?? criteria.lead_time_days ?? 0;
    const earliestStart = addDays(today, leadDays);
    if (input.start_by === undefined) {
      reasons.push({
        criterion: 'lead_time',
        outcome: 'met',
        detail: `We can start from ${earliestStart} (lead time ${leadDays} days).`,
      });
    } else {
      const days = daysBetween(today, input.start_by);
      reasons.push(
        days >= leadDays
          ? {
              criterion: 'lead_time',
              outcome: 'met',
              detail: `A start by ${input.start_by} leaves our ${leadDays}-day lead time.`,
            }
          : {
              criterion: 'lead_time',
              outcome: 'not_met',
              detail: `A start by ${input.start_by} is sooner than our lead time: the earliest is ${earliestStart}.`,
            },
      );
    }

    const verdict = reasons.some((r) => HARD.has(r.criterion) && r.outcome === 'not_met')
      ? 'no_fit'
      : reasons.some((r) => r.outcome !== 'met')
        ? 'partial'
        : 'fit';
    const project = {
      project_type: input.project_type,
      municipality: { code: m.code, name: m.name, district: m.district },
      area_m2: input.area_m2 ?? null,
      start_by: input.start_by ?? null,
    };
    return {
      data: { verdict, reasons, earliest_start: earliestStart, project },
      text: [`Verdict: ${verdict}.`, ...reasons.map((r) => `- ${r.criterion} (${r.outcome}): ${r.detail}`)].join('\n'),
    };
  },
});
