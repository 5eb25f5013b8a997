/**
 * The keys of the signal families and types, in the catalogue's order (catalogue.ts, which serves them). Written
 * out apart from the catalogue so that what only names them — the help of `munidata alerts rule create` — does not
 * load the integrity checks the catalogue describes the integrity types by (docs/architecture.md, "The command
 * line"). test/cli-help.test.ts holds them to the catalogue's types: a new type is added to both.
 */
export const SIGNAL_FAMILY_KEYS: string[] = ['procurement', 'indicators', 'integrity'];

export const SIGNAL_TYPE_KEYS: string[] = [
  'tender_open',
  'deadline_closing',
  'contract_awarded',
  'direct_award_high_value',
  'contract_amended',
  'indicator_jump',
  'indicator_record',
  // The integrity checks' (src/integrity/assess-contract.ts), in their order.
  'short_submission_period',
  'short_submission_period_vs_comparable',
  'single_bid',
  'price_at_base_price',
  'cost_overrun',
  'delay',
  'excessive_unsuccessful_bids',
  'heterogeneous_supplier',
  'supplier_concentration',
  'repeated_direct_awards',
  'possible_splitting',
];
