/**
 * The tax number of a contract's only supplier, or null: a contract awarded to several suppliers (a group's) is no
 * one member's, and one without a number can be found nowhere else. The rule every reader of a sole supplier follows:
 * the integrity checks on a record, the buyers' rows an import writes (contract-write.ts), and the SQL below.
 */
export function soleSupplierOf(suppliers: readonly { nif: string | null }[]): string | null {
  return suppliers.length === 1 ? suppliers[0].nif : null;
}

/**
 * The contracts of one source that name exactly one supplier, with its tax number: the only contracts Cardinal's
 * corpus indicators attribute to a supplier (an award to several suppliers is excluded, as Cardinal excludes it).
 * A WITH item for the corpus queries; `source` is the placeholder the source is bound at.
 */
export function soleSupplierContracts(source: string): string {
  return `sole AS (
    SELECT s.contract_id, min(s.nif) AS nif
      FROM contract_parties s JOIN contracts c ON c.id = s.contract_id
     WHERE s.role = 'supplier' AND c.source = ${source}
     GROUP BY s.contract_id
    HAVING count(*) = 1 AND count(s.nif) = 1
  )`;
}

/**
 * The columns that name a contract's contracting process within one source: its procedure id, or — for a contract
 * without one — its own id (`c` is the contract).
 */
export const PROCESS_COLUMNS = 'c.procedure_id, CASE WHEN c.procedure_id IS NULL THEN c.id END';
