/**
 * Procedure types as the procurement portal publishes them ("Ajuste Direto Regime Geral", "Concurso público", …),
 * gathered into the five families a reader knows. "Direct award" is every type named "ajuste direto"
 * (docs/explorer.md).
 */
export const FAMILIES = ['Direct award', 'Prior consultation', 'Public tender', 'Framework agreement', 'Other'];

export function procedureFamily(type) {
  const t = (type ?? '').toLowerCase();
  if (t.includes('ajuste direto')) return 'Direct award';
  if (t.includes('consulta prévia')) return 'Prior consultation';
  if (t.includes('concurso público')) return 'Public tender';
  if (t.includes('acordo-quadro')) return 'Framework agreement';
  return 'Other';
}
