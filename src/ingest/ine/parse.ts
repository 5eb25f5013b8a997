/**
 * Reads an INE JSON indicator response (`pindica.jsp?op=2`). Two shapes exist and both are accepted:
 * the documented one (`Dados`, `DataUltimoAtualizacao`, `Sucesso`) and the one seen in saved responses
 * (`Pref`, `DataUltimoPref`, `DesagregacaoGeo`). The top level is an array with one object per indicator;
 * a single object is accepted too. See docs/data.md ("Importing INE data").
 *
 * Observations whose extra dimensions (dim_3, dim_4, …) are not the selected categories — by default the
 * totals, "T" or the category labelled "Total" — are not the indicator's municipal value (they are e.g. one sex or one
 * age group); they are
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
  /**
   * The category taken of each extra dimension the response has: the one asked for, else its total — the code
   * `T`, or, when the dimension has no `T`, the one category labelled as the total (`dim_N_t` "Total", "HM").
   */
  dimensions: Record<string, { code: string; label: string | null; chosen: 'asked' | 'T' | 'label' }>;
}

export interface IneParseOptions {
  /**
   * Category code per dimension (`dim_3` or `3` → code); dimensions not named must be their total (see `dimensions`).
   */
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
  if (!variant)
    throw new Error(`INE indicator ${code ?? `#${index}`} has neither "Dados" nor "Pref": not a data response`);
  if (!code) throw new Error(`INE response item ${index} has no IndicadorCod`);
  const byPeriod = item[variant] as Obj;

  const all: IneObservation[] = [];
  const categories = new Map<string, Map<string, string | null>>(); // dim_N → code → its label (dim_N_t)
  for (const [period, rows] of Object.entries(byPeriod)) {
    if (!Array.isArray(rows)) throw new Error(`INE indicator ${code}: period "${period}" does not hold an array`);
    for (const row of rows) {
      const obs = toObservation(period, row, code);
      all.push(obs);
      for (const [d, c] of Object.entries(obs.dims)) {
        const seen = categories.get(d) ?? new Map<string, string | null>();
        if (!seen.get(c)) seen.set(c, str((row as Obj)[`${d}_t`]));
        categories.set(d, seen);
      }
    }
  }
  // Naming a dimension the response does not have would silently select nothing, or everything.
  const missing = Object.keys(wanted).filter((d) => !categories.has(d));
  if (missing.length > 0) {
    throw new Error(
      `INE indicator ${code} has no dimension ${missing.join(', ')} ` +
        `(its dimensions: ${[...categories.keys()].sort().join(', ') || 'none'})`,
    );
  }
  const dimensions: IneIndicator['dimensions'] = {};
  for (const [d, seen] of [...categories].sort(([a], [b]) => a.localeCompare(b))) {
    dimensions[d] =
      wanted[d] !== undefined
        ? { code: wanted[d], label: seen.get(wanted[d]) ?? null, chosen: 'asked' }
        : totalOf(seen);
  }

  const observations: IneObservation[] = [];
  const nonTotal = { count: 0, by_category: {} as Record<string, number> };
  for (const obs of all) {
    const off = Object.entries(obs.dims).filter(([d, c]) => c !== dimensions[d].code);
    if (off.length === 0) {
      observations.push(obs);
    } else {
      nonTotal.count++;
      const key = off.map(([d, c]) => `${d}=${c}`).join(',');
      nonTotal.by_category[key] = (nonTotal.by_category[key] ?? 0) + 1;
    }
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
    rows_read: all.length,
    observations,
    non_total: nonTotal,
    dimensions,
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
  throw new IneErrorResponse(
    `INE returned an error${code ? ` for indicator ${code}` : ''}: ${messages.join('; ') || '(no message)'}`,
  );
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

/** Labels INE gives a dimension's total category: "Total" (also "Total geral"…), and "HM" (both sexes). */
const TOTAL_LABEL = /^(total\b|hm$)/;

/**
 * The total category of a dimension the caller did not choose: `T` (INE's usual code), else the only category
 * labelled as the total — some indicators code it otherwise (`H1` "Total" of the housing categories). Without
 * either, `T` stands: every row of the dimension is then non-total, and the report says which categories there were.
 */
function totalOf(seen: ReadonlyMap<string, string | null>): IneIndicator['dimensions'][string] {
  if (seen.has('T')) return { code: 'T', label: seen.get('T') ?? null, chosen: 'T' };
  const labelled = [...seen].filter(([, label]) => label !== null && TOTAL_LABEL.test(label.trim().toLowerCase()));
  if (labelled.length === 1) return { code: labelled[0][0], label: labelled[0][1], chosen: 'label' };
  return { code: 'T', label: null, chosen: 'T' };
}

/** Accepts `dim_3` or `3` as the dimension name. */
function normaliseDimensions(dimensions: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(dimensions).map(([d, c]) => [/^\d+$/.test(d) ? `dim_${d}` : d, c]));
}
