/**
 * Reads an INE JSON indicator response (`pindica.jsp?op=2`). Two shapes exist and both are accepted:
 * the documented one (`Dados`, `DataUltimoAtualizacao`, `Sucesso`) and the one seen in saved responses
 * (`Pref`, `DataUltimoPref`, `DesagregacaoGeo`). The top level is an array with one object per indicator;
 * a single object is accepted too. See docs/data.md ("Importing INE data").
 *
 * Observations whose extra dimensions (dim_3, dim_4, …) are not the selected categories — by default the
 * totals, "T" — are not the indicator's municipal value (they are e.g. one sex or one age group); they are
 * counted, by category, instead of returned, so that the importer can report them.
 */

export interface IneObservation {
  /** The `Dados`/`Pref` key, as published ("2022", "1.º Trimestre de 2026", …). */
  period: string;
  geocod: string;
  geodsg: string;
  /** `valor` as a number; null when absent, empty or not a plain '.'-decimal number. */
  value: number | null;
  /** `valor` as published (kept when it could not be read as a number). */
  valor: string | null;
  sinal_conv: string | null;
  sinal_conv_desc: string | null;
  /** Extra dimensions of the row: `dim_3` → its category code. */
  dims: Record<string, string>;
}

export interface IneIndicator {
  code: string;
  title: string;
  variant: 'Dados' | 'Pref';
  meta_url: string | null;
  extracted_at: string | null;
  last_updated: string | null;
  latest_period: string | null;
  /** Period labels in the order of the response. */
  periods: string[];
  /** All observations read, whatever their dimensions. */
  rows_read: number;
  /** The observations of the selected categories (the totals by default). */
  observations: IneObservation[];
  /** Rows left out for their dimensions: count, and count per `dim_N=code`. */
  non_total: { count: number; by_category: Record<string, number> };
}

export interface IneParseOptions {
  /** Category code per dimension (`dim_3` or `3` → code); dimensions not named must be the total "T". */
  dimensions?: Record<string, string>;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);

/** A plain decimal with '.' (INE's `valor`); anything else (e.g. a decimal comma) is not guessed at. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export function parseIneResponse(input: string | unknown, options: IneParseOptions = {}): IneIndicator[] {
  let data: unknown = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input.replace(/^\uFEFF/, ''));
    } catch (e) {
      throw new Error(`INE response is not JSON: ${(e as Error).message}`);
    }
  }
  const items = Array.isArray(data) ? data : [data];
  if (items.length === 0) throw new Error('INE response is an empty array: no indicator in it');
  const wanted = normaliseDimensions(options.dimensions ?? {});
  return items.map((item, i) => parseIndicator(item, i, wanted));
}

function parseIndicator(item: unknown, index: number, wanted: Record<string, string>): IneIndicator {
  if (!isObj(item)) throw new Error(`INE response item ${index} is not an object`);
  failOnError(item);

  const variant = isObj(item.Dados) ? 'Dados' : isObj(item.Pref) ? 'Pref' : null;
  const code = str(item.IndicadorCod);
  if (!variant) throw new Error(`INE indicator ${code ?? `#${index}`} has neither "Dados" nor "Pref": not a data response`);
  if (!code) throw new Error(`INE response item ${index} has no IndicadorCod`);
  const byPeriod = item[variant] as Obj;

  const observations: IneObservation[] = [];
  const nonTotal = { count: 0, by_category: {} as Record<string, number> };
  const seenDims = new Set<string>();
  let rowsRead = 0;
  for (const [period, rows] of Object.entries(byPeriod)) {
    if (!Array.isArray(rows)) throw new Error(`INE indicator ${code}: period "${period}" does not hold an array`);
    for (const row of rows) {
      rowsRead++;
      const obs = toObservation(period, row, code);
      for (const d of Object.keys(obs.dims)) seenDims.add(d);
      const off = Object.entries(obs.dims).filter(([d, c]) => c !== (wanted[d] ?? 'T'));
      if (off.length === 0) {
        observations.push(obs);
      } else {
        nonTotal.count++;
        const key = off.map(([d, c]) => `${d}=${c}`).join(',');
        nonTotal.by_category[key] = (nonTotal.by_category[key] ?? 0) + 1;
      }
    }
  }
  // Naming a dimension the response does not have would silently select nothing, or everything.
  const missing = Object.keys(wanted).filter((d) => !seenDims.has(d));
  if (missing.length > 0) {
    throw new Error(
      `INE indicator ${code} has no dimension ${missing.join(', ')} (its dimensions: ${[...seenDims].sort().join(', ') || 'none'})`,
    );
  }

  return {
    code,
    title: str(item.IndicadorDsg) ?? '',
    variant,
    meta_url: str(item.MetaInfUrl),
    extracted_at: str(item.DataExtracao),
    last_updated: str(item.DataUltimoAtualizacao) ?? str(item.DataUltimoPref),
    latest_period: str(item.UltimoPref),
    periods: Object.keys(byPeriod),
    rows_read: rowsRead,
    observations,
    non_total: nonTotal,
  };
}

/** INE answered a refusal instead of data (an invalid code, a period not published yet). */
export class IneErrorResponse extends Error {
  override name = 'IneErrorResponse';
}

/** `Sucesso: {Falso: [{Msg}]}` is INE's way of refusing a request (e.g. an invalid code). */
function failOnError(item: Obj): void {
  const sucesso = item.Sucesso;
  if (!isObj(sucesso) || sucesso.Falso === undefined) return;
  const messages = (Array.isArray(sucesso.Falso) ? sucesso.Falso : [sucesso.Falso])
    .map((m) => (isObj(m) ? str(m.Msg) : str(m)))
    .filter((m): m is string => !!m);
  const code = str(item.IndicadorCod);
  throw new IneErrorResponse(`INE returned an error${code ? ` for indicator ${code}` : ''}: ${messages.join('; ') || '(no message)'}`);
}

function toObservation(period: string, row: unknown, code: string): IneObservation {
  if (!isObj(row)) throw new Error(`INE indicator ${code}, period "${period}": an observation is not an object`);
  const geocod = str(row.geocod);
  if (!geocod) throw new Error(`INE indicator ${code}, period "${period}": an observation has no geocod`);
  const valor = str(row.valor);
  const trimmed = valor?.trim() ?? '';
  const dims: Record<string, string> = {};
  for (const [k, v] of Object.entries(row)) {
    if (/^dim_\d+$/.test(k)) dims[k] = str(v) ?? '';
  }
  return {
    period,
    geocod: geocod.trim(),
    geodsg: str(row.geodsg) ?? '',
    value: DECIMAL.test(trimmed) ? Number(trimmed) : null,
    valor: trimmed === '' ? null : valor,
    sinal_conv: str(row.sinal_conv),
    sinal_conv_desc: str(row.sinal_conv_desc),
    dims,
  };
}

/** Accepts `dim_3` or `3` as the dimension name. */
function normaliseDimensions(dimensions: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(dimensions).map(([d, c]) => [/^\d+$/.test(d) ? `dim_${d}` : d, c]));
}
