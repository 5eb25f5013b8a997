/**
 * The plans `migrate` seeds when they do not exist yet. Plans are data: `munidata plans update` changes them
 * and a later migrate never overwrites those changes.
 */
import { DOMAIN_NAMES } from '../lib/domains.js';
import type { PlanRecord } from '../store/records.js';

export const DEFAULT_PLANS: readonly PlanRecord[] = [
  {
    code: 'free',
    name: 'Free',
    api_access: false,
    domains: [],
    raw_values: false,
    judge: false,
    requests_per_minute: 30,
    requests_per_month: 1_000,
    history_years: 5,
    alerts_history_days: 7,
  },
  {
    code: 'premium',
    name: 'Premium',
    api_access: true,
    domains: [...DOMAIN_NAMES],
    raw_values: true,
    judge: true,
    requests_per_minute: 600,
    requests_per_month: 100_000,
    history_years: 20,
    alerts_history_days: 365,
  },
  {
    code: 'premium_indicators',
    name: 'Premium — indicators',
    api_access: true,
    domains: ['indicators'],
    raw_values: false,
    judge: false,
    requests_per_minute: 300,
    requests_per_month: 50_000,
    history_years: 10,
    alerts_history_days: null,
  },
];
