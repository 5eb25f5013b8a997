import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { Page, Paging } from '../../core/schemas.js';
import { queryTokens } from '../../lib/text-match.js';
import { DistrictName, findDistrict } from '../municipalities/find-district.js';
import { FromDate, ToDate } from '../shared/date-range.js';
import { MunicipalityRefs, municipalityIds } from '../shared/municipality-filters.js';
import { checkRange } from '../shared/ranges.js';
import { CpvPrefix, datePosition, SearchText, SourceFilter } from './inputs.js';
import { dayOf, toAnnouncement } from './resources.js';
import { Announcement } from './schemas.js';

export const procurementAnnouncements = defineOperation({
  name: 'procurement_announcements',
  title: 'Search procurement announcements',
  summary: 'Calls for tenders: newest first, or open ones soonest closing first; by place, CPV, deadline and text.',
  description:
    'Lists procurement announcements (notices opening a procedure). Default order: publication date descending, ' +
    'then id descending. With `open_only=true`: only announcements whose proposal deadline is today (UTC) or later, ' +
    'soonest closing first (deadline ascending, then id). `district`: the district (or autonomous region) the notice ' +
    'names or one of its municipalities is in; ' +
    '`municipality` (code, slug or name, repeatable): placed in any of them. ' +
    '`cpv`: any of its CPV codes starts with these digits. `closing_after`/`closing_before`: deadline bounds, ' +
    'inclusive. `q`: words in the object. `is_open` says whether the deadline is today or later.',
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object(
    {
      district: Type.Optional(DistrictName('Notices in this district.')),
      municipality: Type.Optional(MunicipalityRefs('Placed in this municipality (code, slug or name).')),
      cpv: Type.Optional(CpvPrefix),
      open_only: Type.Optional(
        Type.Boolean({
          default: false,
          description: 'Only announcements still open (deadline today or later), soonest closing first.',
        }),
      ),
      closing_after: FromDate('proposal deadline'),
      closing_before: ToDate('proposal deadline'),
      q: SearchText('the object'),
      source: SourceFilter,
      ...Paging,
    },
    { additionalProperties: false },
  ),
  output: Page(Announcement, 'Announcement'),
  rest: { path: '/v1/procurement/announcements' },
  cache: 'data',
  examples: [
    { title: 'Open calls in the district of Porto', input: { district: 'Porto', open_only: true } },
    { title: 'Open construction calls', input: { cpv: '45', open_only: true } },
    { title: 'Latest calls in Lisboa', input: { municipality: ['1106'] } },
  ],
  async handler(input, { reference, store, paging, now }) {
    checkRange(input.closing_after, input.closing_before, 'closing_after', 'closing_before');
    const today = dayOf(now);
    const openOnly = input.open_only === true;
    const rows = await store.listAnnouncements(
      {
        municipalityIds: municipalityIds(reference, input.municipality, 'municipality'),
        district: input.district === undefined ? undefined : findDistrict(reference, input.district),
        cpvPrefix: input.cpv,
        openOn: openOnly ? today : undefined,
        closingAfter: input.closing_after,
        closingBefore: input.closing_before,
        words: input.q === undefined ? undefined : queryTokens(input.q),
        order: openOnly ? 'deadline' : 'published',
        source: input.source,
      },
      { after: datePosition(paging.after), limit: paging.limit + 1 },
    );
    return paging.page(
      rows.map((a) => toAnnouncement(a, today)),
      (a) => [openOnly ? a.deadline_on : a.published_on, a.id],
    );
  },
});
