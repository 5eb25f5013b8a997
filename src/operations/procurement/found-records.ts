/** A contract or an entity by its key, or the not-found answer every operation that takes one gives. */
import { ApiError } from '../../lib/errors.js';
import type { ContractDetailRecord, EntityRecord } from '../../store/procurement-records.js';
import type { Store } from '../../store/store.js';
import { checkTaxNumber } from './inputs.js';
import { procurementContracts } from './procurement-contracts.js';
import { procurementLookupEntities } from './procurement-lookup-entities.js';

export async function foundContract(store: Pick<Store, 'getContract'>, id: number): Promise<ContractDetailRecord> {
  const contract = await store.getContract(id);
  if (!contract) {
    throw new ApiError('not-found', {
      detail: `No contract with id ${id}.`,
      see: { operation: procurementContracts, does: 'lists them' },
    });
  }
  return contract;
}

/** The entity of the operation's `nif`: 422 for a mistyped Portuguese number, 404 for one no record names. */
export async function foundEntity(store: Pick<Store, 'getEntity'>, nif: string): Promise<EntityRecord> {
  checkTaxNumber(nif, 'nif');
  const entity = await store.getEntity(nif);
  if (!entity) {
    throw new ApiError('not-found', {
      detail: `No procurement entity with tax number ${nif}.`,
      see: { operation: procurementLookupEntities, does: 'finds entities by name' },
    });
  }
  return entity;
}
