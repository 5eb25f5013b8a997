/**
 * Open Contracting IDs: `ocds-munidata-<source>-proc-<procedure id>` for a procedure (its lots are one process),
 * `ocds-munidata-<source>-contract-<source_id>` for a contract without one (its id at the source, not ours). The
 * source keeps two sources' ids apart; `proc`/`contract` keep the portal's two numberings apart. The prefix is not
 * registered with the Open Contracting Partnership: docs/ocds.md, "Contracting processes and the ocid".
 */
import type { ProcessKey } from '../../../store/procurement-queries.js';

export const OCID_PREFIX = 'ocds-munidata';

/** What a valid ocid of this service looks like (the record route's input pattern). */
export const OCID_PATTERN = `^${OCID_PREFIX}-[a-z0-9_]+-(proc|contract)-[^\\s#]+$`;

const OCID = new RegExp(`^${OCID_PREFIX}-([a-z0-9_]+)-(proc|contract)-([^\\s#]+)$`);

export interface ContractProcess {
  readonly source: string;
  readonly source_id: string;
  readonly procedure_id: string | null;
}

/** The ocid of the process a contract belongs to. */
export function ocidOf(contract: ContractProcess): string {
  return contract.procedure_id !== null && contract.procedure_id !== ''
    ? `${OCID_PREFIX}-${contract.source}-proc-${contract.procedure_id}`
    : `${OCID_PREFIX}-${contract.source}-contract-${contract.source_id}`;
}

/** The source and process an ocid names; undefined when it is not an ocid of this service. */
export function parseOcid(ocid: string): { source: string; process: ProcessKey } | undefined {
  const match = OCID.exec(ocid);
  if (!match) return undefined;
  const [, source, kind, id] = match;
  return { source, process: kind === 'proc' ? { procedureId: id } : { contractSourceId: id } };
}
