import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../core/schemas.js';
import { ApiError } from '../../lib/errors.js';
import { euros, formatEuros } from '../citations.js';
import { defineSkill } from '../skill.js';
import { MunicipalityInput, municipalityOf } from './inputs.js';

export const prepareAction = defineSkill({
  id: 'prepare_action',
  title: 'Prepare an action: get a quote',
  description:
    'The first step of a consequential action (a site visit, a study, a proposal…): a quote with the price (net, ' +
    'VAT, total, and how it was computed from the action’s pricing rules), how long it is valid and its terms. ' +
    'Nothing is booked yet: commit_action with the `quote_id` does that, before `valid_until`. A place outside the ' +
    'service area is charged a surcharge where the company sets one, else the quote is refused. Answers with a task.',
  tags: ['action'],
  answer: 'task',
  kind: 'action',
  channels: ['a2a'],
  input: (deployment) =>
    Type.Object(
      {
        action: StringEnum(deployment.spec.actions.map((a) => a.id) as [string, ...string[]], {
          description: 'The action to quote.',
        }),
        municipality: MunicipalityInput,
        area_m2: Type.Optional(
          Type.Number({
            exclusiveMinimum: 0,
            description: 'Area concerned, square metres (priced per m² by some actions).',
          }),
        ),
        urgent: Type.Optional(
          Type.Boolean({ default: false, description: 'Sooner than the usual lead time (a surcharge may apply).' }),
        ),
        notes: Type.Optional(Type.String({ maxLength: 1000 })),
      },
      { additionalProperties: false },
    ),
  examples: (deployment) => {
    const action = deployment.spec.actions[0];
    const place = deployment.spec.service_area.municipalities[0] ?? 'lisboa';
    return action
      ? [{ action: action.id, municipality: place, ...(action.pricing.per_m2_eur > 0 ? { area_m2: 120 } : {}) }]
      : [];
  },
  async handler(input, { deployment, reference, store, now, credentialId }) {
    const action = deployment.spec.actions.find((a) => a.id === input.action);
    if (!action)
      throw new ApiError('validation-error', {
        detail: `Unknown action "${input.action}".`,
        errors: [{ field: 'action', message: 'is not an action of this agent' }],
      });
    const m = municipalityOf(reference, input.municipality);
    const { pricing } = action;
    if (pricing.per_m2_eur > 0 && input.area_m2 === undefined) {
      throw new ApiError('validation-error', {
        detail: `${action.title} is priced per m²: give area_m2.`,
        errors: [{ field: 'area_m2', message: 'is required for this action' }],
      });
    }
    const area = deployment.serviceArea(m);
    if (!area.inside && pricing.outside_area_surcharge_eur === undefined) {
      throw new ApiError('not-found', { detail: `No quote: ${area.explanation}` });
    }

    const breakdown: { item: string; eur: number }[] = [{ item: 'base', eur: pricing.base_eur }];
    if (pricing.per_m2_eur > 0)
      breakdown.push({
        item: `${input.area_m2} m² × ${pricing.per_m2_eur} €`,
        eur: euros(pricing.per_m2_eur * (input.area_m2 ?? 0)),
      });
    let net = breakdown.reduce((total, line) => total + line.eur, 0);
    if (net < pricing.minimum_eur) {
      breakdown.push({ item: 'up to the minimum charge', eur: euros(pricing.minimum_eur - net) });
      net = pricing.minimum_eur;
    }
    if (input.urgent === true && pricing.urgent_surcharge_rate > 0) {
      const surcharge = euros(net * pricing.urgent_surcharge_rate);
      breakdown.push({ item: `urgent (+${Math.round(pricing.urgent_surcharge_rate * 100)}%)`, eur: surcharge });
      net += surcharge;
    }
    if (!area.inside) {
      breakdown.push({ item: 'outside the service area', eur: pricing.outside_area_surcharge_eur ?? 0 });
      net += pricing.outside_area_surcharge_eur ?? 0;
    }
    net = euros(net);
    const vat = euros(net * pricing.vat_rate);
    const validUntil = new Date(now.getTime() + action.quote_valid_days * 86_400_000).toISOString();
    const quote = {
      quote_id: `q_${randomUUID()}`,
      action: action.id,
      title: action.title,
      municipality: { code: m.code, name: m.name, district: m.district },
      area_m2: input.area_m2 ?? null,
      urgent: input.urgent === true,
      notes: input.notes ?? null,
      breakdown,
      price_eur: net,
      vat_rate: pricing.vat_rate,
      vat_eur: vat,
      total_eur: euros(net + vat),
      currency: 'EUR',
      quoted_at: now.toISOString(),
      valid_until: validUntil,
      terms: action.terms,
    };
    await store.agents.createAgentQuote({
      id: quote.quote_id,
      deployment_id: deployment.id,
      credential_id: credentialId,
      action: action.id,
      quote: JSON.stringify(quote),
      valid_until: validUntil,
      created_at: now.toISOString(),
    });
    return {
      data: quote,
      text:
        `Quote ${quote.quote_id} for ${action.title} in ${m.name}: ${formatEuros(net)} + VAT ${formatEuros(vat)} ` +
        `= ${formatEuros(quote.total_eur)}, ` +
        `valid until ${validUntil}. Terms: ${action.terms} To go ahead, call commit_action with this quote_id.`,
    };
  },
});
