/** A procurement entity's euros per year in either role, as the rows of a stacked bar chart (charts.js). */

export const ENTITY_ROLES = ['As supplier', 'As buyer'];

export function entityYearRows(entity) {
  return (entity.by_year ?? []).map((y) => ({
    x: String(y.year),
    parts: { 'As supplier': y.as_supplier_eur, 'As buyer': y.as_buyer_eur },
    counts: [y.as_supplier_count, y.as_buyer_count],
  }));
}
