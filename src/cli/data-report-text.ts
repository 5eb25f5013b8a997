/**
 * What `migrate`, `demo`, `demo remove`, `import ine`, `import real`, `import base`, `import signals` and `detect`
 * did, in a few lines for people; `--json` prints the same reports whole (output.ts).
 */
import type { MigrateReport } from '../admin/migrate.js';
import type { DetectReport } from '../alerts/detect-and-match.js';
import type { DemoSummary } from '../demo/load-demo.js';
import type { SignalImportReport } from '../detect/import-signals.js';
import type { BaseImportReport } from '../ingest/base/import-base.js';
import type { IneImportReport } from '../ingest/ine/import-ine.js';
import type { RealImportReport } from '../ingest/real/import-real.js';
import type { WriteSummary } from '../store/records.js';
import type { DemoRemovalSummary } from '../store/shared/demo-removal.js';

const n = (x: number) => x.toLocaleString('en-US');
const writes = (s: WriteSummary) => `${n(s.inserted)} inserted, ${n(s.updated)} updated, ${n(s.unchanged)} unchanged`;

/** Each migration applied and what was seeded, or that there was nothing to do. */
export function migrateText(store: string, r: MigrateReport): string {
  const seeded = [
    r.plans.length > 0 ? `the default plans ${r.plans.join(', ')}` : '',
    r.indicators > 0 ? `${n(r.indicators)} catalogue indicators (no data yet)` : '',
    r.cpvs > 0 ? `${n(r.cpvs)} CPV codes` : '',
  ].filter(Boolean);
  if (r.migrations.length === 0 && seeded.length === 0) return `Store ${store} was up to date: nothing to apply.`;
  const lines = [`Store ${store}:`];
  if (r.migrations.length > 0) {
    lines.push(
      `  applied ${r.migrations.length} schema migrations: ` +
        `${r.migrations.map((m) => `${m.version} ${m.name}`).join(', ')}`,
    );
  } else {
    lines.push('  schema up to date (no migration pending)');
  }
  if (seeded.length > 0) lines.push(`  seeded ${seeded.join(', ')}`);
  return lines.join('\n');
}

export function demoText(r: DemoSummary): string {
  const p = r.procurement;
  const lines = [
    `Demo data loaded (seed ${r.seed}): SYNTHETIC, marked synthetic: true in every answer`,
    `  municipalities: ${writes(r.municipalities)}`,
    `  indicators: ${writes(r.indicators)}` +
      `${r.skipped.length > 0 ? `; left to their other source: ${r.skipped.join(', ')}` : ''}`,
    `  series points: ${writes(r.observations)}`,
    `  contracts (${n(p.generated)} generated): ${writes(p.contracts)}${p.withheld ? ` — ${p.withheld}` : ''}`,
    `  announcements: ${writes(p.announcements)}`,
    `  amendments: ${writes(p.amendments)}`,
    `  entities: ${writes(p.entities)}`,
    `  the demo account's alert rules: ${n(r.alert_rules)}`,
  ];
  return `${lines.join('\n')}\n${detectText(r.detection)}`;
}

export function demoRemovalText(r: DemoRemovalSummary): string {
  return [
    'Demo data removed:',
    `  ${n(r.contracts)} contracts, ${n(r.announcements)} announcements, ${n(r.amendments)} ` +
      `amendments, ${n(r.entities)} entities`,
    `  ${n(r.observations)} series points of ${r.indicators.length} indicators` +
      `${r.indicators.length > 0 ? ` (${r.indicators.join(', ')})` : ''}`,
    `  ${n(r.signals)} signals, ${n(r.cases)} cases, ${n(r.alert_matches)} alert matches`,
  ].join('\n');
}

export function ineImportText(r: IneImportReport): string {
  const dated = r.periods.filter((p) => p.reference_date !== null);
  const span = dated.length === 0 ? 'no dated period' : `${dated[0].label}…${dated[dated.length - 1].label}`;
  const lines = [
    `INE ${r.ine.code} (${r.ine.title}) ` +
      `→ ${r.indicator}, ${r.mode === 'replace' ? 'replacing the demo series' : 'merged'}`,
    `  ${r.periods.length} periods (${span}), ${n(r.rows_read)} rows read`,
    `  placed ${n(r.placed.rows)} (${n(r.placed.with_value)} with a value, ${n(r.placed.null_value)} without): ` +
      `${writes(r.placed)}${r.placed.removed > 0 ? `, ${n(r.placed.removed)} demo points removed` : ''}`,
    `  source: ${r.source ?? '(none)'}`,
  ];
  if (r.unknown_periods.length > 0)
    lines.push(`  periods not understood (not placed): ${r.unknown_periods.join(', ')}`);
  if (r.unplaced.length > 0)
    lines.push(`  rows not placed on a municipality: ${n(r.unplaced.length)} (--json lists them)`);
  for (const warning of r.warnings) lines.push(`  warning: ${warning}`);
  return lines.join('\n');
}

/** Per series: its indicator and source, what was placed and skipped, and what the write did; then the contracts. */
export function realImportText(r: RealImportReport): string {
  const series = r.series
    .flatMap((s) => [
      `${s.indicator} ← ${s.file}, ${s.mode === 'replace' ? 'replacing the series it held' : 'merged into itself'}`,
      `  ${n(s.placed)} points, ${n(s.municipalities)} municipalities, ${s.first_date ?? '-'}…${s.last_date ?? '-'}: ` +
        `${writes(s)}${s.removed > 0 ? `, ${n(s.removed)} earlier points removed` : ''}`,
      ...Object.entries(s.skipped).map(([reason, count]) => `  skipped ${n(count)}: ${reason}`),
      `  source: ${s.source}`,
    ])
    .join('\n');
  return `${series}\n${baseReportText(r.contracts)}`;
}

/** A BASE import: rows read, accepted and rejected (each with its reason), what the write did. */
export function baseReportText(r: BaseImportReport): string {
  const counts = (s: { inserted: number; updated: number; unchanged: number }) =>
    `${s.inserted} inserted, ${s.updated} updated, ${s.unchanged} unchanged`;
  const lines = [
    `BASE ${r.dataset} from ${r.file} ` +
      `(${r.format}${r.delimiter ? `, delimiter "${r.delimiter === '\t' ? 'tab' : r.delimiter}"` : ''})`,
    `  rows read ${r.rows_read}: ${r.accepted} accepted, ${r.rejected.length} rejected`,
    `  ${r.dataset}: ${counts(r.written[r.dataset])}`,
  ];
  if (r.dataset !== 'amendments') lines.push(`  entities: ${counts(r.written.entities)}`);
  if (r.places_unresolved.count > 0) {
    const examples = r.places_unresolved.examples.slice(0, 5).map((e) => `"${e.text}" (line ${e.line})`);
    lines.push(
      `  execution places not resolved to a municipality: ${r.places_unresolved.count} — e.g. ${examples.join(', ')}`,
    );
  }
  if (r.orphan_amendments.count > 0) {
    lines.push(`  amendments of unknown contracts (not written): ${r.orphan_amendments.count}`);
    for (const o of r.orphan_amendments.items.slice(0, 20))
      lines.push(`    line ${o.line}: ${o.source_id} (contract ${o.contract})`);
    if (r.orphan_amendments.count > 20)
      lines.push(`    … and ${r.orphan_amendments.count - 20} more (--json lists them all)`);
  }
  if (r.rejected.length > 0) {
    lines.push('Rejected rows:');
    for (const x of r.rejected) lines.push(`  line ${x.line}${x.source_id ? ` [${x.source_id}]` : ''}: ${x.reason}`);
  }
  return lines.join('\n');
}

/** One pass of detection then matching, stage by stage. */
export function detectText(r: DetectReport): string {
  return [
    `Detection at ${r.now} (${r.seconds} s)`,
    `  procurement: ${n(r.procurement.entries)} journal entries in ${n(r.procurement.batches)} batches`,
    `  integrity: ${n(r.integrity.contracts)} contracts judged, from ${n(r.integrity.entries)} journal entries`,
    `  deadline sweep: ${r.sweep.from === null ? 'first run' : `since ${r.sweep.from}`}, ${n(r.sweep.entries)} ` +
      `notices derived again`,
    `  indicators: ${r.indicators.indicators.length} changed` +
      `${r.indicators.indicators.length ? ` (${r.indicators.indicators.join(', ')})` : ''}`,
    `  signals: ${writes(r.signals)}`,
    `  cases: ${n(r.cases.computed)} computed, ${n(r.cases.events)} events appended`,
    `  alerts: ${n(r.alerts.rules)} rules checked, ${n(r.alerts.matched)} matches recorded`,
  ].join('\n');
}

/** An import of outside signals: lines read, accepted and rejected (each with its reason), what was written. */
export function signalImportText(r: SignalImportReport): string {
  const lines = [
    `Signals from ${r.file}: ${n(r.lines)} lines, ${n(r.accepted)} accepted, ${n(r.rejected.length)} rejected`,
    `  signals: ${writes(r.written)}`,
    `  cases: ${n(r.cases.computed)} computed, ${n(r.cases.events)} events appended`,
  ];
  if (r.rejected.length > 0) {
    lines.push('Rejected lines:');
    for (const x of r.rejected)
      lines.push(`  line ${x.line}${x.external_id ? ` [${x.external_id}]` : ''}: ${x.reason}`);
  }
  return lines.join('\n');
}
