/**
 * BASE contract modifications (modificações contratuais) → AmendmentInput. The portal gives a modification no
 * id, so ours is `<idcontrato>/<date or "undated">/<n>`: stable across re-imports and yearly files, so a
 * corrected row updates the same amendment. previous_price_eur stays null (the store derives it when read).
 * The id and each field's column: docs/data.md, "What the importer derives".
 */
import type { AmendmentInput } from '../../store/procurement-records.js';
import type { RowContext } from './context.js';
import { CONTRACT_ID_FIELD, contractLink, portalId } from './contracts.js';
import type { RowReader } from './row.js';
import { date, euros, longText, text } from './values.js';

export interface AmendmentRow {
  input: AmendmentInput;
}

export function amendmentFromRow(
  row: RowReader,
  ctx: RowContext,
  countOf: (key: string) => number,
): AmendmentRow | null {
  const contractId = row.read(CONTRACT_ID_FIELD, portalId);
  if (contractId === null && !row.errors.some((e) => e.startsWith(`${CONTRACT_ID_FIELD}:`)))
    row.fail(`${CONTRACT_ID_FIELD} missing`);
  const when = row.read('modifContratoData', date);
  row.read('modifDataPublicacao', date);
  const newPrice = row.read('modifContratoPrecoAlterado', euros);
  const reason = row.read('modifContratoFundamento', longText) ?? row.read('modifContratoTipoAto', text);
  if (row.errors.length > 0 || contractId === null) return null;

  const slot = `${contractId}/${when ?? 'undated'}`;
  return {
    input: {
      source: 'base',
      source_id: `${slot}/${countOf(slot)}`,
      imported_at: ctx.importedAt,
      contract_source_id: contractId,
      date: when,
      previous_price_eur: null,
      new_price_eur: newPrice,
      reason,
      link: contractLink(contractId),
    },
  };
}
