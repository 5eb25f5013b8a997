import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { Page, Paging } from '../../core/schemas.js';
import { toAlertRule } from './resources.js';
import { AlertRuleSummary } from './schemas.js';

export const alertRules = defineOperation({
  name: 'alert_rules',
  title: 'Your alert rules',
  summary: "The caller's alert rules and the predefined subscriptions it turned on, by id.",
  description:
    'Lists the alert rules of the calling account — its own rules and the predefined subscriptions it turned on ' +
    '(those carry a `template_id`) — enabled or not, ordered by id; page with `cursor`. Each says how it matches ' +
    '(`matcher_type`), what it watches (`source_types`, empty for everything) and where (`target_scope`, ' +
    '`municipality_ids`). Pass a rule’s `id` as `rule` to alert_matches to read what it found. Rules are made with ' +
    'the `munidata alerts` command; this interface only reads them. Another account’s rules are never shown.',
  domain: 'alerts',
  scope: 'alerts:read',
  input: Type.Object({ ...Paging }, { additionalProperties: false }),
  output: Page(AlertRuleSummary, 'AlertRuleSummary'),
  rest: { path: '/v1/alert-rules' },
  cache: 'caller',
  examples: [{ title: 'My rules', input: {} }],
  async handler(_input, { store, caller, paging }) {
    const rows = await store.listAlertRules(
      { accountId: caller.account.id },
      { after: paging.after as number | undefined, limit: paging.limit + 1 },
    );
    return paging.page(rows.map(toAlertRule), (r) => r.id);
  },
});
