/**
 * Content negotiation of the REST channel (docs/api.md, CSV): the `format` query parameter when given (`json`,
 * `csv`, `csv-excel`: a link can ask for CSV, which a header cannot), else whether `Accept` prefers `text/csv`.
 */
import type { Format } from '../../core/execution.js';
import { ApiError } from '../../lib/errors.js';

/** The query parameter every REST operation takes beside its input; it is not part of the operation's input. */
export const FORMAT_PARAMETER = 'format';
export const FORMATS = ['json', 'csv', 'csv-excel'] as const satisfies readonly Format[];

/**
 * The representation a request asks for. `format` is a demand: an unknown value, or a CSV form of an operation that
 * has none, is 422. `Accept` is a preference: an operation without a CSV form answers JSON whatever it says.
 */
export function requestedFormat(format: unknown, accept: string | undefined, offersCsv: boolean): Format {
  if (format === undefined) return offersCsv && prefersCsv(accept) ? 'csv' : 'json';
  const value = Array.isArray(format) ? format[format.length - 1] : format;
  if (!(FORMATS as readonly unknown[]).includes(value)) {
    throw new ApiError('validation-error', {
      detail: `\`format\` must be one of ${FORMATS.join(', ')}.`,
      errors: [{ field: FORMAT_PARAMETER, message: `must be one of ${FORMATS.join(', ')}` }],
    });
  }
  if (value !== 'json' && !offersCsv) {
    throw new ApiError('validation-error', {
      detail: `This operation answers JSON only: \`format=${value}\` is offered on lists and the aggregate.`,
      errors: [{ field: FORMAT_PARAMETER, message: 'must be json here' }],
    });
  }
  return value as Format;
}

const OFFERED = ['application/json', 'text/csv'] as const;

/**
 * Whether the request's `Accept` prefers `text/csv` to `application/json` (RFC 9110 §12.5.1): each offer takes the
 * quality of the most specific range that matches it; the higher quality wins. On a tie the offer named more
 * specifically wins (`text/csv` beside the any-type range → CSV; `text/` + `*` → CSV), then JSON (the any-type
 * range alone, no header, or nothing acceptable: `Accept` is a preference, so no 406).
 */
export function prefersCsv(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return false;
  const ranges = parseAccept(accept);
  const [json, csv] = OFFERED.map((offer) => quality(offer, ranges));
  if (csv.q <= 0) return false;
  return csv.q > json.q || (csv.q === json.q && csv.specificity > json.specificity);
}

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [range, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const slash = range.indexOf('/');
    if (slash <= 0 || slash === range.length - 1) continue;
    let q = 1;
    for (const param of params) {
      const [name, raw] = param.split('=').map((s) => s.trim());
      if (name !== 'q') continue;
      q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(raw ?? '') ? Number(raw) : Number.NaN;
      break;
    }
    if (Number.isNaN(q)) continue; // a malformed weight: ignore the range rather than guess
    ranges.push({ type: range.slice(0, slash), subtype: range.slice(slash + 1), q });
  }
  return ranges;
}

function quality(offer: string, ranges: MediaRange[]): { q: number; specificity: number } {
  const [type, subtype] = offer.split('/');
  let best = { q: 0, specificity: 0 };
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype
        ? 3
        : r.type === type && r.subtype === '*'
          ? 2
          : r.type === '*' && r.subtype === '*'
            ? 1
            : 0;
    if (specificity > best.specificity) best = { q: r.q, specificity };
  }
  return best;
}
