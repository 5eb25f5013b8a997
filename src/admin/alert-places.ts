/**
 * Where a rule watches: the municipalities named (`--municipality CODE|SLUG`, repeatable), the municipalities
 * of a district (`--district NAME`), or the whole country when neither is given.
 */

import { AdminError } from '../lib/admin-error.js';
import { closestDistricts, districtName, districtNamed } from '../lib/district-names.js';
import type { MunicipalityRecord } from '../store/records.js';
import type { AlertRuleInput } from '../store/signal-records.js';
import type { Store } from '../store/store.js';
import { COMMAND_LINE, type RuleWording } from './rule-wording.js';

export interface PlaceOptions {
  municipalities?: string[];
  district?: string;
}

export type RulePlace = Pick<AlertRuleInput, 'target_scope' | 'municipality_ids' | 'district'>;

/**
 * The rule's place, and how it reads in a subscription's name ("Lisboa, Porto", "distrito de Braga"; null: national).
 */
export async function rulePlace(
  store: Pick<Store, 'listMunicipalities'>,
  o: PlaceOptions,
  w: RuleWording = COMMAND_LINE,
): Promise<{ place: RulePlace; label: string | null }> {
  const named = o.municipalities ?? [];
  if (named.length > 0 && o.district !== undefined)
    throw new AdminError(`Give ${w.field('municipalities')} or ${w.field('district')}, not both.`);
  if (named.length === 0 && o.district === undefined) {
    return { place: { target_scope: 'national', municipality_ids: [], district: null }, label: null };
  }
  const municipalities = await store.listMunicipalities();
  if (o.district !== undefined) {
    const districts = [...new Set(municipalities.map((m) => m.district))].sort((a, b) => a.localeCompare(b, 'pt'));
    // The regions by their short names too (`--district Madeira`): lib/district-names.ts.
    const district = districtNamed(districts, o.district);
    if (district === undefined) {
      const near = closestDistricts(districts, o.district);
      throw new AdminError(
        `No district "${o.district}".${near.length > 0 ? ` Did you mean ${near.join(', ')}?` : ''} ` +
          `Districts: ${districts.join(', ')}.`,
      );
    }
    const inDistrict = municipalities.filter((m) => m.district === district);
    return {
      place: { target_scope: 'district', municipality_ids: inDistrict.map((m) => m.id), district },
      label: districtName(district, 'pt'),
    };
  }
  const chosen = [...new Map(named.map((ref) => findMunicipality(municipalities, ref)).map((m) => [m.id, m])).values()];
  const names = chosen.map((m) => m.name);
  return {
    place: { target_scope: 'municipalities', municipality_ids: chosen.map((m) => m.id), district: null },
    label: names.length > 3 ? `${names.slice(0, 3).join(', ')} e mais ${names.length - 3}` : names.join(', '),
  };
}

/** By 4-digit code or slug (case-insensitively), as every municipality parameter of the API. */
function findMunicipality(municipalities: readonly MunicipalityRecord[], ref: string): MunicipalityRecord {
  const wanted = ref.trim().toLowerCase();
  const found = municipalities.find((m) => m.code === wanted || m.slug === wanted);
  if (!found)
    throw new AdminError(`No municipality "${ref}": give its 4-digit code or its slug (e.g. 1106 or lisboa).`);
  return found;
}
