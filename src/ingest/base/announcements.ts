/**
 * One BASE announcement (anúncio) record → AnnouncementInput. Required: `nAnuncio` and the publishing entity
 * (`nifEntidade`, with `designacaoEntidade`); every other field may be absent but must be well formed.
 *
 * - deadline_on: `DataLimitePropostas` when given; otherwise the publication date plus `PrazoPropostas` days
 *   (the proposal period the notice states, counted from its publication); null when neither is known.
 * - municipalities / district: notices carry no place; when the publishing entity is a municipality, the notice
 *   is that municipality's (and its district's). Other entities' notices have none.
 * - link: the notice as published (`url`: Diário da República / regional journal).
 */
import type { AnnouncementInput } from '../../store/procurement-records.js';
import { type RowContext, toParty } from './context.js';
import { looksLikeParty } from './contracts.js';
import { looksLikeCpv, parseCpv } from './cpv.js';
import { type ParsedParty, parseParty, partyFromParts } from './parties.js';
import type { RowReader } from './row.js';
import { addDays, date, euros, FieldError, items, longText, text, wholeNumber } from './values.js';

export const ANNOUNCEMENT_ID_FIELD = 'nAnuncio';

export interface AnnouncementRow {
  input: AnnouncementInput;
  parties: ParsedParty[];
}

export function announcementFromRow(row: RowReader, ctx: RowContext): AnnouncementRow | null {
  const id = row.read(ANNOUNCEMENT_ID_FIELD, text);
  if (id === null && !row.errors.some((e) => e.startsWith(`${ANNOUNCEMENT_ID_FIELD}:`)))
    row.fail(`${ANNOUNCEMENT_ID_FIELD} missing`);
  const buyer = readEntity(row);
  const publishedOn = row.read('dataPublicacao', date);
  const deadline = row.read('DataLimitePropostas', date);
  const periodDays = row.read('PrazoPropostas', wholeNumber);
  const object = row.read('descricaoAnuncio', longText);
  const cpvs = [...new Set(row.readEach('CPVs', looksLikeCpv, parseCpv))];
  const basePrice = row.read('PrecoBase', euros);
  const contractTypes = row.read(['tiposContrato', 'tipoContrato'], (v) => items(v)) ?? [];
  const procedureType = row.read('modeloAnuncio', text);
  const link = row.read('url', text);

  if (row.errors.length > 0 || id === null || buyer === null) return null;

  const municipality = buyer.kind === 'identified' && !buyer.foreign ? ctx.municipalityByNif.get(buyer.nif) : undefined;
  const input: AnnouncementInput = {
    source: 'base',
    source_id: id,
    imported_at: ctx.importedAt,
    published_on: publishedOn,
    deadline_on: deadline ?? (publishedOn !== null && periodDays !== null ? addDays(publishedOn, periodDays) : null),
    buyer: toParty(buyer),
    object: object ?? '',
    cpvs,
    base_price_eur: basePrice,
    contract_types: [...new Set(contractTypes)],
    procedure_type: procedureType,
    municipality_ids: municipality ? [municipality.id] : [],
    district: municipality ? municipality.district : null,
    link,
  };
  return { input, parties: [buyer] };
}

/** `nifEntidade` + `designacaoEntidade`; a glued "NIF - name" in `nifEntidade` is read too. */
function readEntity(row: RowReader): ParsedParty | null {
  const nif = row.read('nifEntidade', text);
  const name = row.read('designacaoEntidade', text);
  try {
    const party =
      nif !== null && looksLikeParty(nif) && /\s-\s/.test(nif) ? parseParty(nif) : partyFromParts(nif, name);
    if (party === null || nif === null) {
      row.fail('nifEntidade missing');
      return null;
    }
    return party;
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    row.fail(`nifEntidade: ${error.message}`);
    return null;
  }
}
