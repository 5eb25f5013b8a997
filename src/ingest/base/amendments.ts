/**
 * BASE contract modifications (modificações contratuais) → AmendmentInput.
 *
 * The portal gives a modification no id of its own (idcontrato repeats, one row per modification). Ours is
 * `<idcontrato>/<modification date YYYY-MM-DD, or "undated">/<n>`, n = 1, 2, … counting the file's
 * modifications of that contract on that date in file order. It is stable across re-imports of the same
 * file and across the yearly files (a modification keeps its contract and date), and a correction of a row's
 * price or reason updates the same amendment instead of adding one.
 *
 * - date: `modifContratoData` (`DD/MM/YYYY 00:00:00`); `modifDataPublicacao` is validated, not kept.
 * - new_price_eur: `modifContratoPrecoAlterado` — the contract price AFTER the modification, not a delta.
 * - previous_price_eur: null — the file does not carry it. The store derives it when read (the new price of the
 *   contract's previous amendment, else the contract price), so it stays right when an earlier modification
 *   arrives in a later file.
 * - reason: `modifContratoFundamento`, else `modifContratoTipoAto`.
 * - link: the contract's page on the portal.
 */
import type { AmendmentInput } from '../../store/procurement-records.js';
import type { RowContext } from './context.js';
import { CONTRACT_ID_FIELD, contractLink, portalId } from './contracts.js';
import type { RowReader } from './row.js';
import { date, euros, longText, text } from './values.js';

export interface AmendmentRow {
  input: AmendmentInput;
}

export function amendmentFromRow(row: RowReader, ctx: RowContext, countOf: (key: string) => number): AmendmentRow | null {
  const contractId = row.read(CONTRACT_ID_FIELD, portalId);
  if (contractId === null && !row.errors.some((e) => e.startsWith(`${CONTRACT_ID_FIELD}:`))) row.fail(`${CONTRACT_ID_FIELD} missing`);
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
