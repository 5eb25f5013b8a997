import { Type } from '@sinclair/typebox';
import { fold } from '../../lib/text-match.js';
import { DistrictName, findDistrict } from '../../operations/municipalities/find-district.js';
import type { AnnouncementRecord } from '../../store/procurement-records.js';
import { formatEuros, restUrl } from '../citations.js';
import { defineSkill } from '../skill.js';
import { daysBetween } from './inputs.js';

export const procurementTrackOpportunities = defineSkill({
  id: 'procurement_track_opportunities',
  title: 'Track open procurement notices',
  description:
    'Open calls for tenders (proposal deadline today or later) in a `district` — default: the districts of our ' +
    'service area — and, optionally, whose CPV code starts with `cpv`; soonest closing first. Each notice carries a ' +
    'citation (`source`: the notice on the portal; `rest`: the REST route listing it). Answers with a task.',
  tags: ['procurement'],
  answer: 'task',
  kind: 'read',
  channels: ['a2a', 'mcp'],
  procurement: true,
  input: () =>
    Type.Object(
      {
        district: Type.Optional(DistrictName('Notices in this district.')),
        cpv: Type.Optional(
          Type.String({
            pattern: '^[0-9]{1,8}$',
            description: 'The first 1 to 8 digits of a CPV code (`45` construction).',
          }),
        ),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
      },
      { additionalProperties: false },
    ),
  examples: () => [{ district: 'Porto', cpv: '45' }, {}],
  async handler(input, { store, reference, deployment, now, baseUrl }) {
    const districts =
      input.district !== undefined ? [findDistrict(reference, input.district)] : deployment.serviceDistricts(reference);
    const today = now.toISOString().slice(0, 10);
    const limit = input.limit ?? 20;
    const nameOf = (folded: string) =>
      reference.municipalities.find((m) => fold(m.district) === folded)?.district ?? folded;
    // Each notice with the district it was found in: its citation is that district's list.
    const seen = new Map<number, { a: AnnouncementRecord; district: string }>();
    for (const district of districts) {
      const found = await store.listAnnouncements(
        { district, cpvPrefix: input.cpv, openOn: today, order: 'deadline' },
        { limit },
      );
      for (const a of found) if (!seen.has(a.id)) seen.set(a.id, { a, district: nameOf(district) });
    }
    const notices = [...seen.values()]
      .sort((x, y) => (x.a.deadline_on ?? '').localeCompare(y.a.deadline_on ?? '') || x.a.id - y.a.id)
      .slice(0, limit)
      .map(({ a, district }) => ({
        id: a.id,
        notice: a.source_id,
        object: a.object,
        buyer: a.buyer,
        published_on: a.published_on,
        deadline_on: a.deadline_on,
        days_left: a.deadline_on === null ? null : daysBetween(today, a.deadline_on),
        base_price_eur: a.base_price_eur,
        cpv: a.cpv.map((c) => c.code),
        district: a.district,
        municipalities: a.municipalities,
        citation: {
          source: a.link,
          rest: restUrl(baseUrl, '/v1/procurement/announcements', { district, cpv: input.cpv, open_only: true }),
        },
      }));
    const names = districts.map(nameOf);
    return {
      data: { as_of: today, districts: names, cpv: input.cpv ?? null, notices },
      text:
        notices.length === 0
          ? `No open notice in ${names.join(', ')}${input.cpv ? ` for CPV ${input.cpv}` : ''}.`
          : [
              `${notices.length} open notice(s) in ${names.join(', ')}${input.cpv ? ` for CPV ${input.cpv}` : ''}, ` +
                `soonest closing first:`,
              ...notices.map(
                (n) =>
                  `- ${n.deadline_on} (${n.days_left} days) ${n.object} — ${n.buyer.name}, ` +
                  `base ${formatEuros(n.base_price_eur)} [${n.citation.source ?? n.citation.rest}]`,
              ),
            ].join('\n'),
    };
  },
});
