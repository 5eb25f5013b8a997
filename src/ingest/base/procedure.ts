/**
 * Procedure types of the Código dos Contratos Públicos (CCP) → OCDS `procurementMethod`, by who may submit a
 * tender under the CCP's rules for each procedure; anything unlisted → null, not guessed. The mapping and why
 * each type gets its method: docs/data.md, "What the importer derives".
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
