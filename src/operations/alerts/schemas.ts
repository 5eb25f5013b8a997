/**
 * Resource schemas of the alerts domain, with the enumerations published as `enum` (docs/decisions.md,
 * Enumerations and Resources). Every field is always present (null where there is nothing), except `judge`, which
 * appears only on
 * plans that include the judge and only once a verdict exists.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, Synthetic } from '../../core/schemas.js';
import { ALERT_SOURCE_TYPES, MATCH_STATUSES, MATCHER_TYPES, TARGET_SCOPES } from '../../lib/vocabulary.js';
import { UpdatedAt } from '../shared/instants.js';

const Text = (description?: string) => Nullable(Type.String(description ? { description } : {}));

export const AlertSourceType = StringEnum(ALERT_SOURCE_TYPES, {
  description:
    'What a rule watches / what matched: signal, procurement_announcement, ' +
    'procurement_contract, procurement_amendment.',
});
export const MatchStatus = StringEnum(MATCH_STATUSES, { description: 'matched, or dismissed by the account.' });

export const AlertRuleSummary = Type.Object(
  {
    id: Type.Integer({ description: 'The `rule` filter of alert_matches.' }),
    name: Type.String(),
    matcher_type: StringEnum(MATCHER_TYPES, {
      description:
        'How it matches: keyword (words in titles and texts), cpv (CPV prefixes), entity (tax numbers), ' +
        'signal_type, indicator_threshold.',
    }),
    source_types: Type.Array(AlertSourceType, { description: 'What it watches; empty: everything.' }),
    municipality_ids: Type.Array(Type.Integer(), {
      description: 'The municipalities it watches (integer ids); empty when national.',
    }),
    target_scope: Nullable(StringEnum(TARGET_SCOPES, { description: 'municipalities, district or national.' })),
    enabled: Type.Boolean({ description: 'Disabled rules keep their matches but match nothing new.' }),
    template_id: Nullable(
      Type.Integer({ description: 'The predefined subscription it was turned on from; null for an own rule.' }),
    ),
    created_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'AlertRuleSummary' },
);

export const AlertJudge = Type.Object(
  {
    is_direct_action: Nullable(
      Type.Boolean({
        description:
          'true: the item is itself an action (a tender, an award); false: a passing mention. Never hides a match.',
      }),
    ),
    action_type: Text('The kind of action, when it is one.'),
    why_pt: Text(),
    why_en: Text(),
    confidence: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { title: 'AlertJudge', description: 'A verdict on the match: an annotation only, it never withholds a match.' },
);

export const AlertMatchSummary = Type.Object(
  {
    id: Type.Integer(),
    rule_id: Type.Integer(),
    rule_name: Text(),
    source_type: AlertSourceType,
    municipality_id: Nullable(Type.Integer({ description: 'The municipality (its integer id, 1–308).' })),
    score: Nullable(Type.Number({ description: 'How well it matched the rule, 0–1.' })),
    title: Text(),
    snippet: Text('The text that matched.'),
    link: Text('Where to read the item.'),
    status: MatchStatus,
    matched_at: Nullable(
      Type.String({ format: 'date-time', description: 'When the matcher recorded it; lists are newest first.' }),
    ),
    case_id: Nullable(Type.Integer({ description: 'The signal case it belongs to (signal_cases_get).' })),
    updated_at: UpdatedAt,
    synthetic: Synthetic,
    judge: Type.Optional(Nullable(AlertJudge)),
  },
  { title: 'AlertMatchSummary' },
);
