/** Which number a caller is served: the value itself, or the 0–100 normalized index for plans without raw values. */
import type { ObservationRow, PlanRecord, Treatment } from '../../store/records.js';

export function servedValue(row: ObservationRow, plan: PlanRecord): { value: number | null; treatment: Treatment } {
  return plan.raw_values
    ? { value: row.value, treatment: row.treatment }
    : { value: row.value_norm, treatment: 'normalized' };
}

/** The treatment stated for a missing value: the indicator's own, or `normalized` on plans without raw values. */
export function emptyTreatment(indicatorTreatment: Treatment, plan: PlanRecord): Treatment {
  return plan.raw_values ? indicatorTreatment : 'normalized';
}
