/**
 * Per supplier of one source, its contracting processes and the variety of what it supplied: the distinct CPV
 * prefixes of `digits` digits over its contracts (Store.supplierVarieties; the corpus of R048, heterogeneous
 * supplier, docs/integrity.md). A contract counts when it names that supplier alone and has a CPV code, as Cardinal
 * counts an award with one supplier and a classified item; a process counts once, however many of its contracts.
 */
import type { SupplierVarietyRecord } from '../procurement-queries.js';
import type { SqlPort } from '../sql/port.js';
import { PROCESS_COLUMNS, soleSupplierContracts } from './sole-supplier.js';

export async function supplierVarieties(
  port: SqlPort,
  source: string,
  digits: number,
): Promise<SupplierVarietyRecord[]> {
  const rows = await port.query(
    `WITH ${soleSupplierContracts('$1')}
     SELECT v.nif, n.processes, v.prefixes
       FROM (SELECT sole.nif, count(DISTINCT substr(k.cpv, 1, $2)) AS prefixes
               FROM sole JOIN contract_cpvs k ON k.contract_id = sole.contract_id
              GROUP BY sole.nif) v
       JOIN (SELECT p.nif, count(*) AS processes
               FROM (SELECT DISTINCT sole.nif, ${PROCESS_COLUMNS}
                       FROM sole JOIN contracts c ON c.id = sole.contract_id
                      WHERE EXISTS (SELECT 1 FROM contract_cpvs k WHERE k.contract_id = c.id)) p
              GROUP BY p.nif) n ON n.nif = v.nif`,
    [source, digits],
  );
  return rows.map((r) => ({ nif: String(r.nif), processes: Number(r.processes), cpv_prefixes: Number(r.prefixes) }));
}
