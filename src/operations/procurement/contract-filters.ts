/**
 * The contract filters, shared by every operation that lists contracts (procurement_contracts, and the OCDS
 * release package procurement_ocds_releases): one input schema, one description, one translation into the
 * store's ContractFilter — so that the same query string selects the same contracts on both.
 */
import { type Static, Type } from '@sinclair/typebox';
import type { ReferenceData } from '../../core/reference.js';
import { queryTokens } from '../../lib/text-match.js';
import type { ContractFilter } from '../../store/procurement-queries.js';
import { FromDate, ToDate } from '../shared/date-range.js';
import { MunicipalityRefs, municipalityIds } from '../shared/municipality-filters.js';
import { checkRange } from '../shared/ranges.js';
import { CpvPrefix, checkTaxNumber, Nif, SearchText, SourceFilter } from './inputs.js';
import { OcdsMethod } from './schemas.js';

/** The filter parameters (spread them into an operation's input object, next to `...Paging`). */
export const contractFilterParams = {
  municipality: Type.Optional(MunicipalityRefs('Executed in this municipality (code, slug or name).')),
  buyer: Type.Optional({ ...Nif, description: 'Tax number of a contracting entity (9 digits).' }),
  supplier: Type.Optional({ ...Nif, description: 'Tax number of a supplier (9 digits).' }),
  cpv: Type.Optional(CpvPrefix),
  procedure_type: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Procedure type as published (`Ajuste Direto Regime Geral`), any case or accents.',
    }),
  ),
  method: Type.Optional(OcdsMethod),
  from: FromDate('publication date'),
  to: ToDate('publication date'),
  min_amount: Type.Optional(Type.Number({ minimum: 0, description: 'Lowest contract price included, euros.' })),
  max_amount: Type.Optional(Type.Number({ minimum: 0, description: 'Highest contract price included, euros.' })),
  q: SearchText('the object or description'),
  source: SourceFilter,
};

const ContractFilterInput = Type.Object(contractFilterParams);
export type ContractFilterInput = Static<typeof ContractFilterInput>;

/** What the filters mean, for an operation's description. */
export const CONTRACT_FILTERS_DESCRIPTION =
  'Every filter given must hold. `municipality` (code, slug or name, repeatable): executed in any of them. `buyer` / ' +
  '`supplier`: the tax number of a contracting entity / a supplier (procurement_lookup_entities finds it by name; ' +
  'a municipality’s own is in procurement_lookup_municipalities). `cpv`: the main CPV code starts with these ' +
  'digits (`45` construction work). `procedure_type`: the Portuguese label, any case or accents (`Concurso ' +
  'público`); `method`: its OCDS method. `from`/`to`: publication dates, inclusive. `min_amount`/`max_amount`: the ' +
  'contract price in euros (without VAT), inclusive; contracts without a price only match when no amount bound is ' +
  'given. `q`: words in the object or description. `source`: `base` (real) or `demo` (synthetic) records only.';

/**
 * The store filter of these inputs; 422 for an unknown municipality, a range whose ends are swapped or a mistyped
 * tax number (which would select nothing, silently).
 */
export function contractFilterOf(input: ContractFilterInput, reference: ReferenceData): ContractFilter {
  checkTaxNumber(input.buyer, 'buyer');
  checkTaxNumber(input.supplier, 'supplier');
  checkRange(input.from, input.to, 'from', 'to');
  checkRange(input.min_amount, input.max_amount, 'min_amount', 'max_amount');
  return {
    municipalityIds: municipalityIds(reference, input.municipality, 'municipality'),
    buyer: input.buyer,
    supplier: input.supplier,
    cpvPrefix: input.cpv,
    procedureType: input.procedure_type,
    method: input.method,
    from: input.from,
    to: input.to,
    minAmount: input.min_amount,
    maxAmount: input.max_amount,
    words: input.q === undefined ? undefined : queryTokens(input.q),
    source: input.source,
  };
}
