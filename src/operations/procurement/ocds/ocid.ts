/**
 * Open Contracting IDs. An ocid is the publisher's prefix plus an id of the contracting process:
 *
 *   ocds-munidata-<source>-proc-<procedure id>        contracts that share a procedure (its lots) are one process
 *   ocds-munidata-<source>-contract-<contract id>     a contract whose source gives no procedure id
 *
 * `<source>` is the record's source (`base`, `demo`, …: lowercase letters, digits, `_`), so that the same
 * procedure id from two sources never collides; `proc` / `contract` tell the two kinds of process id apart (the
 * portal numbers procedures and contracts independently, so one number can be both).
 *
 * Real OCDS prefixes are registered with the Open Contracting Partnership (`ocds-` + six characters). This one is
 * not registered: it marks the data as re-published by this service (docs/ocds.md).
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
