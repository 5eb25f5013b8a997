/**
 * The OCDS 1.1 merge routine for a compiled release (standard: schema/merging): the releases of one ocid, in date
 * order, merged field by field — the latest value wins; arrays of objects are merged by their `id`; arrays of
 * literals, and the whole-list-merge fields, are replaced whole; `id`, `date` and `tag` of the releases are
 * dropped, and the compiled release gets `tag: ['compiled']`, the latest date and `id` = `<ocid>-<date>`.
 */
import type { Json } from '../../../lib/json.js';

/** Fields the release schema marks `wholeListMerge` (replaced whole, though they hold objects). */
const WHOLE_LIST_MERGE = new Set(['additionalIdentifiers', 'additionalClassifications']);
/** Top-level fields the release schema marks `omitWhenMerged`. */
const OMIT_WHEN_MERGED = new Set(['id', 'date', 'tag']);

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function mergeObject(output: Json, input: Json, top: boolean): void {
  for (const [key, value] of Object.entries(input)) {
    if (top && OMIT_WHEN_MERGED.has(key)) continue;
    if (value === null || value === undefined) {
      delete output[key];
    } else if (isObject(value)) {
      const target = isObject(output[key]) ? (output[key] as Json) : {};
      mergeObject(target, value, false);
      output[key] = target;
    } else if (Array.isArray(value) && value.length > 0 && value.every(isObject) && !WHOLE_LIST_MERGE.has(key)) {
      const target = Array.isArray(output[key]) ? (output[key] as Json[]) : [];
      for (const element of value as Json[]) {
        const match = target.find((existing) => isObject(existing) && existing.id === element.id);
        if (match) {
          mergeObject(match, element, false);
        } else {
          const added: Json = {};
          mergeObject(added, element, false);
          target.push(added);
        }
      }
      output[key] = target;
    } else {
      output[key] = structuredClone(value);
    }
  }
}

/** The compiled release of these releases (all of one ocid, already in date order). */
export function compileReleases(ocid: string, releases: readonly Json[]): Json {
  const merged: Json = {};
  for (const release of releases) mergeObject(merged, release, true);
  const date = releases.reduce((latest, r) => ((r.date as string) > latest ? (r.date as string) : latest), '');
  const { ocid: _ocid, ...rest } = merged;
  return { ocid, id: `${ocid}-${date}`, date, tag: ['compiled'], ...rest };
}
