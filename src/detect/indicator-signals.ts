/**
 * The signals of one indicator across every municipality (see indicator-changes.ts for the rules):
 *  - indicator_jump at every jump of every series: active at the series' latest period (news), expired for the
 *    earlier ones (history that the case timeline still shows);
 *  - indicator_record at a series' latest period when it is a record: active; once a newer period arrives the
 *    stored record signal expires (it is no longer the latest), and one whose record a revision undid is withdrawn.
 * Cases are indicator episodes: a run of consecutive jump periods of one indicator in one municipality, named by
 * its first period (the jump there is the origin). A record joins the episode of its period, or of the period
 * just before it; otherwise it opens a case of its own.
 */

import { clip } from '../lib/clip.js';
import { inPlace, inPlaceStart } from '../lib/portuguese-articles.js';
import type { CaseRelationship } from '../lib/vocabulary.js';
import type { IndicatorRecord, ObservationRow } from '../store/records.js';
import type { SignalCaseRef, SignalInput, SignalRecord } from '../store/signal-records.js';
import { confidence, INDICATOR_RELIABILITY, type Missing } from './confidence.js';
import { DETECTOR_ORIGIN, type DetectionContext, retired } from './detection-context.js';
import { type Lang, number, period, signedPercent, withoutNote } from './format.js';
import {
  baselines,
  type Change,
  changes,
  episodeStarts,
  type Jump,
  jumps,
  latestRecord,
  MIN_PEERS,
  type RecordPoint,
} from './indicator-changes.js';

export const INDICATORS = 'indicators';
/** Fewer peers than this behind a median, or fewer points behind a record, lower the confidence. */
const THIN_PEERS = 20;
const THIN_POINTS = 10;

export function indicatorSignalKey(
  type: 'indicator_jump' | 'indicator_record',
  indicator: string,
  code: string,
  date: string,
): string {
  return `${INDICATORS}:${type}:${indicator}:${code}:${date}`;
}

function parseKey(key: string): { type: string; indicator: string; code: string; date: string } | null {
  const parts = key.split(':');
  if (parts.length !== 5 || parts[0] !== INDICATORS) return null;
  return { type: parts[1], indicator: parts[2], code: parts[3], date: parts[4] };
}

/**
 * @param series every municipality's series of the indicator, by municipality id, reference_date ascending
 * @param existing the stored signals of this indicator, by key
 */
export function indicatorSignals(
  indicator: IndicatorRecord,
  series: ReadonlyMap<number, readonly ObservationRow[]>,
  ctx: DetectionContext,
  existing: ReadonlyMap<string, SignalRecord>,
): SignalInput[] {
  const perMunicipality = new Map<number, Change[]>();
  if (indicator.value_domain !== 'signed') for (const [id, rows] of series) perMunicipality.set(id, changes(rows));
  const dates = baselines(perMunicipality);
  const out: SignalInput[] = [];
  const emitted = new Set<string>();
  /** By municipality code: the case a record at a date of its series would join (undefined off the series). */
  const recordCaseOf = new Map<string, (date: string) => SignalCaseRef | undefined>();
  for (const [municipalityId, rows] of series) {
    const municipality = ctx.places.byId(municipalityId);
    if (!municipality || rows.length === 0) continue;
    const found = jumps(perMunicipality.get(municipalityId) ?? [], dates);
    const starts = episodeStarts(rows, new Set(found.map((j) => j.index)));
    const latest = rows[rows.length - 1].reference_date;
    const where = { id: municipalityId, name: municipality.name, code: municipality.code };
    const episode = (start: string, type: string, relationship: CaseRelationship): SignalCaseRef => ({
      key: `${INDICATORS}:${indicator.key}:${where.code}:${start}`,
      type,
      family: INDICATORS,
      relationship,
    });
    for (const j of found) {
      const start = starts.get(j.index) as string;
      const signal = jumpSignal(
        indicator,
        where,
        j,
        rows[j.index],
        latest,
        episode(start, 'indicator_jump', start === j.reference_date ? 'origin' : 'update'),
      );
      out.push(signal);
      emitted.add(signal.key);
    }
    // Where a record at a period would go: the case of an expired record is computed from the same rule. Asked
    // for the latest record and the stored ones only, not made for every point of every series.
    const recordCase = (date: string): SignalCaseRef | undefined => {
      const i = indexOfDate(rows, date);
      if (i < 0) return undefined;
      const start = starts.get(i) ?? (i > 0 ? starts.get(i - 1) : undefined);
      return start ? episode(start, 'indicator_jump', 'update') : episode(date, 'indicator_record', 'origin');
    };
    recordCaseOf.set(where.code, recordCase);
    const record = latestRecord(rows);
    if (record) {
      const key = indicatorSignalKey('indicator_record', indicator.key, where.code, record.reference_date);
      out.push(
        recordSignal(
          indicator,
          where,
          record,
          rows[rows.length - 1],
          recordCase(record.reference_date) as SignalCaseRef,
        ),
      );
      emitted.add(key);
    }
  }
  // Stored signals no series derives any more: records superseded by a newer period expire, the rest are withdrawn.
  for (const [key, old] of existing) {
    if (emitted.has(key) || old.status !== 'active') continue;
    const parsed = parseKey(key);
    const rows = old.municipality_id === null ? undefined : series.get(old.municipality_id);
    const superseded =
      parsed?.type === 'indicator_record' &&
      rows !== undefined &&
      rows.length > 0 &&
      rows[rows.length - 1].reference_date > parsed.date;
    const caseRef =
      parsed?.type === 'indicator_record' && parsed.indicator === indicator.key
        ? recordCaseOf.get(parsed.code)?.(parsed.date)
        : undefined;
    out.push(retired(old, superseded ? 'expired' : 'withdrawn', caseRef ?? null));
  }
  return out;
}

/** The index of the point at `date` in a series in date order, or -1. */
function indexOfDate(rows: readonly ObservationRow[], date: string): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = rows[mid].reference_date;
    if (at === date) return mid;
    if (at < date) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

interface Where {
  id: number;
  name: string;
  code: string;
}

/** English names of the units the catalogue displays in Portuguese. */
const UNIT_EN: Record<string, string> = {
  'hab.': 'inhabitants',
  'idosos por 100 jovens': 'elderly per 100 young people',
  anos: 'years',
  'hab./km²': 'inhabitants/km²',
  'kg/hab.': 'kg/inhabitant',
  '€/hab.': '€/inhabitant',
};

/** The value as stored (the two decimals INE publishes at most, trailing decimal zeros dropped), with its unit. */
export function withUnit(value: number, indicator: IndicatorRecord, lang: Lang): string {
  const n = number(value, lang);
  const unit = indicator.unit_display;
  if (!unit || unit === 'n.º') return n;
  if (unit === 'Portugal = 100') return `${n} (Portugal = 100)`;
  if (unit === '%' || unit === '‰') return lang === 'pt' ? `${n} ${unit}` : `${n}${unit}`;
  return `${n} ${lang === 'en' ? (UNIT_EN[unit] ?? unit) : unit}`;
}

/**
 * A value and the period it is of, in one pair of parentheses with an index's base: "64,3 (Portugal = 100, 2011)",
 * not "64,3 (Portugal = 100) (2011)".
 */
function valueIn(value: number, date: string, indicator: IndicatorRecord, lang: Lang): string {
  const { text, note } = withoutNote(withUnit(value, indicator, lang));
  const when = period(date, indicator.frequency, lang);
  return `${text} (${note === null ? when : `${note}, ${when}`})`;
}

function treatmentPenalty(row: ObservationRow): Missing[] {
  return row.treatment === 'estimated' ? ['estimated'] : row.treatment === 'derived' ? ['derived'] : [];
}

function base(indicator: IndicatorRecord, where: Where, row: ObservationRow, caseRef: SignalCaseRef) {
  return {
    origin: DETECTOR_ORIGIN,
    family: INDICATORS,
    municipality_id: where.id,
    stage: null,
    value_tier: null,
    deadline_date: null,
    event_date: row.reference_date,
    amount_eur: null,
    location_text: where.name,
    subject: { cpv: [], nifs: [], indicator: indicator.key, indicator_value: row.value },
    case: caseRef,
  };
}

function jumpSignal(
  indicator: IndicatorRecord,
  where: Where,
  j: Jump,
  row: ObservationRow,
  latest: string,
  caseRef: SignalCaseRef,
): SignalInput {
  const active = j.reference_date === latest;
  const missing = treatmentPenalty(row);
  if (j.baseline.peers < THIN_PEERS) missing.push('thin');
  const up = j.percent > 0;
  const at = (date: string, lang: Lang) => period(date, indicator.frequency, lang);
  const from = (lang: Lang) => valueIn(j.previous, j.previous_date, indicator, lang);
  const to = (lang: Lang) => valueIn(j.value, j.reference_date, indicator, lang);
  const when = (lang: Lang) => at(j.reference_date, lang);
  const typical = (lang: Lang) =>
    j.baseline.peers >= MIN_PEERS
      ? lang === 'pt'
        ? ` A variação mediana dos ${j.baseline.peers} municípios com dados nesse período foi ` +
          `de ${signedPercent(j.baseline.median, 'pt').replace('+', '')}, em valor absoluto.`
        : ` The median change of the ${j.baseline.peers} municipalities with data for that period ` +
          `was ${signedPercent(j.baseline.median, 'en').replace('+', '')} in absolute terms.`
      : '';
  return {
    ...base(indicator, where, row, caseRef),
    key: indicatorSignalKey('indicator_jump', indicator.key, where.code, j.reference_date),
    type: 'indicator_jump',
    title_pt: `${indicator.name_pt}: ${signedPercent(j.percent, 'pt')} ${inPlace(where.name)} (${when('pt')})`,
    title_en: `${indicator.name}: ${signedPercent(j.percent, 'en')} in ${where.name} (${when('en')})`,
    summary_pt:
      `${inPlaceStart(where.name)}, o indicador «${indicator.name_pt}» ${up ? 'subiu' : 'desceu'} de ${from('pt')} ` +
      `para ${to('pt')}, uma variação de ${signedPercent(j.percent, 'pt')}.${typical('pt')}`,
    summary_en:
      `In ${where.name}, “${indicator.name}” ${up ? 'rose' : 'fell'} from ${from('en')} to ${to('en')}, a ` +
      `change of ${signedPercent(j.percent, 'en')}.${typical('en')}`,
    why_it_matters_pt:
      'Uma variação muito maior do que a dos outros municípios no mesmo período aponta para um acontecimento local ' +
      '(um investimento, um encerramento, uma catástrofe) ou para uma revisão dos dados.',
    why_it_matters_en:
      'A change far larger than other municipalities saw in the same period points to a local event (an investment, ' +
      'a closure, a disaster) or to a revision of the data.',
    next_step_pt:
      `Confirmar o valor na fonte${indicator.source ? ` (${clip(indicator.source, 80)})` : ''} e ` +
      `procurar a causa local da variação.`,
    status: active ? 'active' : 'expired',
    confidence: confidence(INDICATOR_RELIABILITY, missing),
    actionability: active ? 'monitor' : 'informational',
    evidence: [
      {
        source_type: 'indicator',
        source_url: null,
        source_title: indicator.name_pt,
        source_date: j.reference_date,
        excerpt_pt: `${where.name}: ${from('pt')} → ${to('pt')} (${signedPercent(j.percent, 'pt')}).`,
        confidence: INDICATOR_RELIABILITY,
      },
    ],
  };
}

function recordSignal(
  indicator: IndicatorRecord,
  where: Where,
  r: RecordPoint,
  row: ObservationRow,
  caseRef: SignalCaseRef,
): SignalInput {
  const high = r.direction === 'high';
  const missing = treatmentPenalty(row);
  if (r.points < THIN_POINTS) missing.push('thin');
  const at = (date: string, lang: Lang) => period(date, indicator.frequency, lang);
  const value = (lang: Lang) => withUnit(r.value, indicator, lang);
  const previous = (lang: Lang) => valueIn(r.previous, r.previous_date, indicator, lang);
  return {
    ...base(indicator, where, row, caseRef),
    key: indicatorSignalKey('indicator_record', indicator.key, where.code, r.reference_date),
    type: 'indicator_record',
    title_pt:
      `${indicator.name_pt}: ${high ? 'máximo' : 'mínimo'} da série ${inPlace(where.name)} ` +
      `(${at(r.reference_date, 'pt')})`,
    title_en: `${indicator.name}: record ${high ? 'high' : 'low'} in ${where.name} (${at(r.reference_date, 'en')})`,
    summary_pt:
      `Em ${at(r.reference_date, 'pt')}, o indicador «${indicator.name_pt}» ${inPlace(where.name)} foi ` +
      `de ${value('pt')}, o valor mais ` +
      `${high ? 'alto' : 'baixo'} dos ${r.points} períodos da série; o anterior ${high ? 'máximo' : 'mínimo'} ` +
      `era ${previous('pt')}.`,
    summary_en:
      `In ${at(r.reference_date, 'en')}, “${indicator.name}” in ${where.name} stood at ${value('en')}, ` +
      `the ${high ? 'highest' : 'lowest'} ` +
      `value of the series' ${r.points} periods; the previous record was ${previous('en')}.`,
    why_it_matters_pt:
      'Um máximo ou mínimo histórico marca o ponto mais extremo de uma tendência e costuma ser notícia local.',
    why_it_matters_en: 'A record high or low marks the most extreme point of a trend and tends to be local news.',
    next_step_pt: 'Comparar com os municípios vizinhos e com a média nacional para perceber se a tendência é local.',
    status: 'active',
    confidence: confidence(INDICATOR_RELIABILITY, missing),
    actionability: 'informational',
    evidence: [
      {
        source_type: 'indicator',
        source_url: null,
        source_title: indicator.name_pt,
        source_date: r.reference_date,
        excerpt_pt:
          `${where.name}, ${at(r.reference_date, 'pt')}: ${value('pt')} (${high ? 'máximo' : 'mínimo'} ` +
          `anterior: ${previous('pt')}).`,
        confidence: INDICATOR_RELIABILITY,
      },
    ],
  };
}
