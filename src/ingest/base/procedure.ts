/**
 * Procedure types of the Código dos Contratos Públicos (CCP) → OCDS `procurementMethod`.
 *
 * OCDS 1.1 defines the four methods by who may submit a tender:
 *   open       all interested suppliers may submit a tender;
 *   selective  only qualified suppliers are invited to submit a tender;
 *   limited    the procuring entity contacts a number of suppliers of its choice;
 *   direct     the contract is awarded to a single supplier without competition.
 *
 * Mapping, by the CCP's rules for each procedure:
 *   Concurso público (normal, urgente, simplificado)                  → open: anyone may bid.
 *   Concurso limitado por prévia qualificação; Procedimento de
 *   negociação; Diálogo concorrencial; Parceria para a inovação      → selective: candidates apply, only
 *                                                                        those qualified are invited to bid.
 *   Consulta Prévia (and Consulta Prévia Simplificada)                → limited: the entity invites at least
 *                                                                        three suppliers of its choice.
 *   Ajuste Direto (regime geral, simplificado, especial)              → direct: one supplier, no competition.
 *   Ao abrigo de acordo-quadro (art.º 258.º)                          → direct: a framework with a single
 *                                                                        supplier; the call-off goes to it.
 *   Ao abrigo de acordo-quadro (art.º 259.º)                          → selective: a framework with several
 *                                                                        suppliers; the call-off invites all
 *                                                                        of them (a mini-competition among
 *                                                                        suppliers qualified in the first stage;
 *                                                                        OCDS guidance: a second-stage
 *                                                                        competition keeps the first stage's
 *                                                                        method, most often selective).
 *   Contratação excluída (I, II, …)                                   → direct: contracts outside the CCP's
 *                                                                        procedures (in-house, between public
 *                                                                        bodies…) go to one counterpart.
 * Anything else (a framework call-off without its article, concurso de conceção — which may be public or
 * limited —, special-sector regimes…) → null: not guessed. The Portuguese label is kept as published.
 */

import { fold } from '../../lib/text-match.js';
import type { OcdsMethod } from '../../store/procurement-records.js';

const RULES: [RegExp, OcdsMethod][] = [
  [/^concurso publico\b/, 'open'],
  [/^concurso limitado\b/, 'selective'],
  [/^procedimento de negociacao\b/, 'selective'],
  [/^dialogo concorrencial\b/, 'selective'],
  [/^parceria para a inovacao\b/, 'selective'],
  [/^consulta previa\b/, 'limited'],
  [/^ajuste direto\b|^ajuste directo\b/, 'direct'],
  [/acordo[- ]quadro.*\b258\b/, 'direct'],
  [/acordo[- ]quadro.*\b259\b/, 'selective'],
  [/^contratacao excluida\b/, 'direct'],
];

export function ocdsMethod(procedureType: string | null): OcdsMethod | null {
  if (procedureType === null) return null;
  const folded = fold(procedureType).replace(/\s+/g, ' ').trim();
  for (const [pattern, method] of RULES) if (pattern.test(folded)) return method;
  return null;
}
