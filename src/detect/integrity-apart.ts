/**
 * What a contract judged without its buyer's whole list (integrity-scope.ts: a new contract, one whose amendment
 * changed, one a new contract reaches on some types) needs so that its signals are written as if it had been judged
 * with it: the contracts its flags cite, read for the evidence, and, when judged on some types only, the flags it
 * stands on of the others, which decide which flag opens its case (integrity-signal.ts, integrityCases).
 */
import { INTEGRITY_TYPES } from '../integrity/assess-contract.js';
import type { Assessed } from '../integrity/assess-contracts.js';
import type { ContractRecord } from '../store/procurement-records.js';
import type { DetectionContext } from './detection-context.js';
import { type DetectionStore, existingSignals } from './detection-store.js';
import { chunks } from './integrity-scope.js';
import { evidenceCites, integritySignalKey, procurementOpening } from './integrity-signal.js';

/**
 * The contracts the flags of contracts judged without their buyer's list cite as evidence, read: the evidence is then
 * what the buyer's list would have given, whichever way a contract was judged.
 */
export async function citedBy(
  store: DetectionStore,
  assessed: readonly Assessed[],
): Promise<Map<number, ContractRecord>> {
  const ids = new Set<number>();
  for (const { contract, assessments } of assessed) {
    for (const a of assessments) if (a.state === 'flagged') for (const id of evidenceCites(contract, a)) ids.add(id);
  }
  const cited = new Map<number, ContractRecord>();
  for (const part of chunks([...ids])) for (const c of await store.getContracts(part)) cited.set(c.id, c);
  return cited;
}

/**
 * Of the types a contract judged on some types only was not judged on, those it stands flagged on (its stored signal
 * is active): which of its flags opens its case depends on all of them (integrityCases) — unless a procurement
 * signal opens it, and then none is read.
 */
export async function flaggedOtherwise(
  store: DetectionStore,
  assessed: readonly Assessed[],
  ctx: DetectionContext,
): Promise<Map<number, Set<string>>> {
  const keys = new Map<string, { contract: number; type: string }>();
  for (const { contract, assessments } of assessed) {
    if (procurementOpening(contract, ctx) !== null) continue;
    const judgedOn = new Set(assessments.map((a) => a.type));
    for (const { key: type } of INTEGRITY_TYPES) {
      if (!judgedOn.has(type)) keys.set(integritySignalKey(type, contract), { contract: contract.id, type });
    }
  }
  const out = new Map<number, Set<string>>();
  for (const [key, signal] of await existingSignals(store, [...keys.keys()])) {
    const of = keys.get(key);
    if (!of || signal.status !== 'active') continue;
    const types = out.get(of.contract);
    if (types) types.add(of.type);
    else out.set(of.contract, new Set([of.type]));
  }
  return out;
}
