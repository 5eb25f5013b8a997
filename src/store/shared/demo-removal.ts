/**
 * `munidata demo remove` (docs/data.md, "Real and synthetic data"): every record the demo generated, and what
 * was derived from it, deleted the same way in every store by `removeDemoRecords`, in one transaction: children
 * before parents, matches and links before what they point to; the demo contracts taken out of the rollups, the
 * totals of the entities they named recomputed, and the full-text rows of what goes deleted through the dialect's
 * bulk load. Imported data, accounts, keys, alert rules and usage are not touched. Every value is a constant of
 * ours, quoted here: the statements take no parameters, so one text serves both dialects.
 */
import { DEMO_PROCUREMENT_SOURCE } from '../../lib/provenance.js';
import { bumpProcurementVersion } from '../meta.js';
import type { BulkLoad } from '../procurement/bulk-load.js';
import { flushRollups, refreshEntityTotals, takeOutOfRollups } from '../procurement/rollups.js';
import type { SqlPort } from '../sql/port.js';
import { RollupDeltas } from './rollup-deltas.js';

export interface DemoRemovalSummary {
  contracts: number;
  announcements: number;
  amendments: number;
  entities: number;
  observations: number;
  /** Indicators whose demo series were removed (they stay in the catalogue, with no source). */
  indicators: string[];
  signals: number;
  cases: number;
  alert_matches: number;
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
const DEMO = quote(DEMO_PROCUREMENT_SOURCE);

/** The sets the statements delete, as SQL conditions and subqueries. */
function demoSets(demoIndicators: readonly string[]) {
  const indicators = demoIndicators.length > 0 ? demoIndicators.map(quote).join(', ') : "''";
  const contracts = `SELECT id FROM contracts WHERE source = ${DEMO}`;
  const announcements = `SELECT id FROM announcements WHERE source = ${DEMO}`;
  const amendmentWhere = `source = ${DEMO} OR contract_id IN (${contracts})`;
  // Signal keys: procurement:<type>:<source>:<id>, integrity:<type>:<source>:<id>, indicators:<type>:<indicator>:…,
  // import:<source>:… (lib/provenance.ts).
  const signalWhere = [
    `key LIKE ${quote(`procurement:%:${DEMO_PROCUREMENT_SOURCE}:%`)}`,
    `key LIKE ${quote(`integrity:%:${DEMO_PROCUREMENT_SOURCE}:%`)}`,
    `key LIKE ${quote(`import:${DEMO_PROCUREMENT_SOURCE}:%`)}`,
    ...demoIndicators.map((k) => `key LIKE ${quote(`indicators:%:${k}:%`)}`),
  ].join(' OR ');
  // Case keys: procurement:<source>:…, indicators:<indicator>:….
  const caseWhere = [
    `key LIKE ${quote(`procurement:${DEMO_PROCUREMENT_SOURCE}:%`)}`,
    ...demoIndicators.map((k) => `key LIKE ${quote(`indicators:${k}:%`)}`),
  ].join(' OR ');
  const signals = `SELECT id FROM signals WHERE ${signalWhere}`;
  const cases = `SELECT id FROM cases WHERE ${caseWhere}`;
  const amendments = `SELECT id FROM amendments WHERE ${amendmentWhere}`;
  // The entities the demo named: parties of its contracts and buyers of its notices.
  const named = `SELECT nif FROM contract_parties WHERE nif IS NOT NULL AND contract_id IN (${contracts})
    UNION SELECT buyer_nif FROM announcements WHERE buyer_nif IS NOT NULL AND source = ${DEMO}`;
  // After the deletions: those of them that nothing real names any more.
  const orphanEntities = `nif IN (SELECT nif FROM entity_rollup_queue)
    AND NOT EXISTS (SELECT 1 FROM contract_parties p WHERE p.nif = entities.nif)
    AND NOT EXISTS (SELECT 1 FROM announcements a WHERE a.buyer_nif = entities.nif)`;
  return {
    indicators,
    /** The demo's own contracts and announcements. */
    demoSource: `source = ${DEMO}`,
    contracts,
    announcements,
    amendments,
    amendmentWhere,
    signals,
    signalWhere,
    cases,
    caseWhere,
    named,
    orphanEntities,
  };
}

/** Counts of what `demoRemovalStatements` deletes, as one SELECT (run it first, in the same transaction). */
function demoRemovalCounts(demoIndicators: readonly string[]): string {
  const s = demoSets(demoIndicators);
  return `SELECT
    (SELECT count(*) FROM contracts WHERE source = ${DEMO}) AS contracts,
    (SELECT count(*) FROM announcements WHERE source = ${DEMO}) AS announcements,
    (SELECT count(*) FROM amendments WHERE ${s.amendmentWhere}) AS amendments,
    (SELECT count(*) FROM observations WHERE indicator IN (${s.indicators})) AS observations,
    (SELECT count(*) FROM signals WHERE ${s.signalWhere}) AS signals,
    (SELECT count(*) FROM cases WHERE ${s.caseWhere}) AS cases,
    (SELECT count(*) FROM alert_matches WHERE ${matchWhere(s)}) AS alert_matches`;
}

function matchWhere(s: ReturnType<typeof demoSets>): string {
  return [
    `item_key IN (SELECT 'signal:' || id FROM signals WHERE ${s.signalWhere})`,
    `item_key IN (SELECT 'procurement_contract:' || id FROM contracts WHERE source = ${DEMO})`,
    `item_key IN (SELECT 'procurement_announcement:' || id FROM announcements WHERE source = ${DEMO})`,
    `item_key IN (SELECT 'procurement_amendment:' || id FROM amendments WHERE ${s.amendmentWhere})`,
    `case_id IN (${s.cases})`,
  ].join(' OR ');
}

/** The deletions, in order: `before` the rollups are flushed and the orphaned entities counted, then `entities`. */
function demoRemovalStatements(demoIndicators: readonly string[]): { before: string[]; entities: string[] } {
  const s = demoSets(demoIndicators);
  const before = [
    `DELETE FROM alert_matches WHERE ${matchWhere(s)}`,
    `DELETE FROM changes WHERE (kind = 'signal' AND record_id IN (${s.signals}))
       OR (kind = 'contract' AND record_id IN (${s.contracts}))
       OR (kind = 'announcement' AND record_id IN (${s.announcements}))
       OR (kind = 'amendment' AND record_id IN (${s.amendments}))
       OR (kind = 'observation' AND record_key IN (${s.indicators}))`,
    `DELETE FROM case_links WHERE signal_id IN (${s.signals}) OR case_id IN (${s.cases})`,
    `DELETE FROM case_events WHERE case_id IN (${s.cases})`,
    `DELETE FROM cases WHERE ${s.caseWhere}`,
    `DELETE FROM signals WHERE ${s.signalWhere}`,
    `INSERT INTO entity_rollup_queue (nif) SELECT DISTINCT n.nif FROM (${s.named}) n
       WHERE n.nif NOT IN (SELECT nif FROM entity_rollup_queue)`,
    `DELETE FROM amendments WHERE ${s.amendmentWhere}`,
    `DELETE FROM contract_cpvs WHERE contract_id IN (${s.contracts})`,
    `DELETE FROM contract_parties WHERE contract_id IN (${s.contracts})`,
    `DELETE FROM contract_municipalities WHERE contract_id IN (${s.contracts})`,
    `DELETE FROM contracts WHERE source = ${DEMO}`,
    `DELETE FROM announcement_cpvs WHERE announcement_id IN (${s.announcements})`,
    `DELETE FROM announcement_municipalities WHERE announcement_id IN (${s.announcements})`,
    `DELETE FROM announcement_districts WHERE announcement_id IN (${s.announcements})`,
    `DELETE FROM announcements WHERE source = ${DEMO}`,
    `DELETE FROM observations WHERE indicator IN (${s.indicators})`,
    `UPDATE indicators SET source = NULL WHERE key IN (${s.indicators})`,
  ];
  const entities = [`DELETE FROM entities WHERE ${s.orphanEntities}`];
  return { before, entities };
}

/**
 * Runs the removal inside `tx` and says what went. The full-text rows of what goes are deleted through the
 * dialect's bulk load while their records are still there (none where the text index follows its table by itself).
 */
export async function removeDemoRecords(
  tx: SqlPort,
  load: BulkLoad,
  demoIndicators: readonly string[],
): Promise<DemoRemovalSummary> {
  const sets = demoSets(demoIndicators);
  const [counts] = await tx.query(demoRemovalCounts(demoIndicators));
  const deltas = new RollupDeltas();
  await takeOutOfRollups(tx, deltas, `c.source = ${DEMO}`, []);
  const { before, entities } = demoRemovalStatements(demoIndicators);
  await load.unindexText('contracts', sets.demoSource, []);
  await load.unindexText('announcements', sets.demoSource, []);
  for (const statement of before) await tx.run(statement);
  await flushRollups(tx, deltas);
  const [orphans] = await tx.query(`SELECT count(*) AS n FROM entities WHERE ${sets.orphanEntities}`);
  await load.unindexText('entities', sets.orphanEntities, []);
  for (const statement of entities) await tx.run(statement);
  await refreshEntityTotals(tx);
  await bumpProcurementVersion(tx);
  return {
    contracts: Number(counts.contracts),
    announcements: Number(counts.announcements),
    amendments: Number(counts.amendments),
    entities: Number(orphans.n),
    observations: Number(counts.observations),
    indicators: [...demoIndicators],
    signals: Number(counts.signals),
    cases: Number(counts.cases),
    alert_matches: Number(counts.alert_matches),
  };
}
