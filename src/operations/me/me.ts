import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { Nullable, StringEnum } from '../../core/schemas.js';
import { DOMAIN_NAMES } from '../../lib/domains.js';

const Limit = Type.Optional(Nullable(Type.Integer()));

export const me = defineOperation({
  name: 'me',
  title: 'Who am I',
  summary: "The caller's plan, scopes, data domains, limits and usage this month. Free of quota.",
  description:
    'Call this first. It says which plan the key belongs to, its scopes, the data domains the plan includes ' +
    '(an operation of another domain is refused), whether raw values are served, the per-minute and monthly ' +
    'limits, the history depth of series, and how many requests remain this month. It uses no quota. `sources` ' +
    '(GET /v1/sources, its address in `sources_url`) says where the data comes from and which of it is synthetic.',
  domain: null,
  scope: null,
  free: true,
  input: Type.Object({}, { additionalProperties: false }),
  output: Type.Object(
    {
      account_id: Type.Integer(),
      plan_code: Type.String(),
      beta: Type.Boolean(),
      scopes: Type.Array(Type.String()),
      domains: Type.Array(StringEnum(DOMAIN_NAMES)),
      raw_values: Type.Boolean(),
      limits: Type.Object({
        requests_per_minute: Limit,
        requests_per_month: Limit,
        history_years: Limit,
        alerts_history_days: Limit,
      }),
      usage: Type.Object({
        requests_this_month: Type.Integer(),
        requests_remaining: Type.Optional(Nullable(Type.Integer())),
        period_start: Type.Optional(Nullable(Type.String({ format: 'date' }))),
        period_end: Type.Optional(Nullable(Type.String({ format: 'date' }))),
      }),
      sources_url: Type.String({
        description: 'Where the data comes from and which of it is synthetic (operation `sources`, free of quota).',
      }),
    },
    { title: 'MeResponse' },
  ),
  rest: { path: '/v1/me' },
  cache: 'caller',
  examples: [{ title: 'Plan, limits and usage', input: {} }],
  async handler(_input, { caller, usage, baseUrl }) {
    const { plan, account } = caller;
    const { used, period } = await usage();
    return {
      account_id: account.id,
      plan_code: plan.code,
      beta: account.beta,
      scopes: [...caller.scopes],
      domains: [...plan.domains],
      raw_values: plan.raw_values,
      limits: {
        requests_per_minute: plan.requests_per_minute,
        requests_per_month: plan.requests_per_month,
        history_years: plan.history_years,
        alerts_history_days: plan.alerts_history_days,
      },
      usage: {
        requests_this_month: used,
        requests_remaining: plan.requests_per_month === null ? null : Math.max(0, plan.requests_per_month - used),
        period_start: period.start,
        period_end: period.end,
      },
      sources_url: `${baseUrl}/v1/sources`,
    };
  },
});
