/**
 * What is left of PostgreSQL's keyset module: ./aggregate.ts takes its date bounds from here. The keyset lists are
 * written once (../../procurement/keyset.ts); this file goes when the aggregate is written once too.
 */
export { dateRange } from '../../procurement/keyset.js';
