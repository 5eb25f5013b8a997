/**
 * Many contracts assessed at once (a buyer's red flags, detection): their amendments read in one query and their
 * notices in another, rather than a getContract per contract, then each assessed as assessContract assesses it.
 */
import type { AmendmentRecord, ContractDetailRecord, ContractRecord } from '../store/procurement-records.js';
import { assessContract } from './assess-contract.js';
import type { Assessment } from './assessment.js';
import type { CheckContext } from './check.js';
import { preloadNotices } from './notice-period.js';

export interface Assessed {
  contract: ContractDetailRecord;
  assessments: Assessment[];
}

/**
 * Each contract with its assessments, in the order given. `only` names, per contract, the types to run (all when
 * it gives undefined); `flaggedOnly` tells, per contract, whether only its flagged assessments are wanted.
 */
export async function assessContracts(
  contracts: readonly ContractRecord[],
  ctx: CheckContext,
  only?: (c: ContractRecord) => ReadonlySet<string> | undefined,
  flaggedOnly?: (c: ContractRecord) => boolean,
): Promise<Assessed[]> {
  await preloadNotices(ctx, contracts);
  const out: Assessed[] = [];
  for (const contract of await withAmendments(ctx, contracts)) {
    const assessments = await assessContract(contract, ctx, only?.(contract), flaggedOnly?.(contract) ?? false);
    out.push({ contract, assessments });
  }
  return out;
}

/** The contracts as getContract gives them (with their amendments, oldest first), in one read of amendments. */
async function withAmendments(
  ctx: CheckContext,
  contracts: readonly ContractRecord[],
): Promise<ContractDetailRecord[]> {
  const amendments = await ctx.store.contractAmendments(contracts.map((c) => c.id));
  const byContract = new Map<number, AmendmentRecord[]>();
  for (const a of amendments) {
    const list = byContract.get(a.contract_id);
    if (list) list.push(a);
    else byContract.set(a.contract_id, [a]);
  }
  return contracts.map((c) => ({ ...c, amendments: byContract.get(c.id) ?? [] }));
}
