/**
 * Per supplier of one source, its contracting processes and the variety of what it supplied: the distinct CPV
 * prefixes of `digits` digits over its contracts (Store.supplierVarieties; the corpus of R048, heterogeneous
 * supplier, docs/integrity.md). A contract counts when it names that supplier alone and has a CPV code, as Cardinal
 * counts an award with one supplier and a classified item; a process counts once, however many of its contracts.
 */
import type { SupplierVarietyRecord } from '../procurement-queries.js';
import type { SqlPort } from '../sql/port.js';
import { soleSupplierContracts } from './sole-supplier.js';

export async function supplierVarieties(
  port: SqlPort,
  source: string,
  digits: number,
): Promise<SupplierVarietyRecord[]> {
  // One pass over the sole-supplier contracts that have a CPV code: the prefixes and the processes are counted over
  // the same rows. (Two grouped subqueries joined on the tax number let PostgreSQL, which cannot estimate a WITH
  // item's rows, choose a nested loop that grouped the second once per supplier: seconds, not milliseconds.)
  // A process is its procedure id, or the contract's own id when it has none; count(DISTINCT …) skips the nulls.
  const rows = await port.query(
    `WITH ${soleSupplierContracts('$1')}
     SELECT sole.nif, count(DISTINCT substr(k.cpv, 1, $2)) AS prefixes,
            count(DISTINCT c.procedure_id) + count(DISTINCT CASE WHEN c.procedure_id IS NULL THEN c.id END) AS processes
       FROM sole
       JOIN contracts c ON c.id = sole.contract_id
       JOIN contract_cpvs k ON k.contract_id = c.id
      GROUP BY sole.nif`,
    [source, digits],
  );
  return rows.map((r) => ({ nif: String(r.nif), processes: Number(r.processes), cpv_prefixes: Number(r.prefixes) }));
}
