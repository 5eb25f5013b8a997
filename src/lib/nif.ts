/**
 * Portuguese tax numbers (NIF for persons, NIPC for legal persons: the same 9-digit scheme) and what the
 * number says about its holder.
 */

import { fold } from './text-match.js';
import type { EntityKind, TaxNumberKind } from './vocabulary.js';

/**
 * The mod-11 check digit: the first eight digits weighted 9…2; the check digit is 11 − (sum mod 11), or 0 when
 * that is 10 or 11.
 */
export function isValidNif(nif: string): boolean {
  if (!/^\d{9}$/.test(nif)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(nif[i]) * (9 - i);
  const rest = sum % 11;
  const check = rest < 2 ? 0 : 11 - rest;
  return check === Number(nif[8]);
}

/** The kind given to the holder of a number that says nothing of it (a foreign id, a placeholder). */
export const ASSUMED_KIND: EntityKind = 'company';

/**
 * The kind of an entity from its tax number and name: its first digits say who it was issued to (person,
 * public_body, or company: a legal person outside the public administration), a 5-number public only when the
 * name says so. Foreign ids and placeholders (taxNumberKind) say nothing of their holder: `company` by default
 * (kindIsAssumed). Which digits: docs/data.md, "What the importer derives".
 */
export function kindFromNif(nif: string, name: string): EntityKind {
  if (taxNumberKind(nif) !== 'portuguese') return ASSUMED_KIND;
  const first = nif[0];
  if (first === '1' || first === '2' || first === '3' || first === '8' || nif.startsWith('45')) return 'person';
  if (first === '6') return 'public_body';
  if (first === '5' && looksPublic(name)) return 'public_body';
  return 'company';
}

/**
 * Names of public bodies that hold a 5-number. Company forms (S.A., Lda., Unipessoal) win over the words, so
 * "Hospital da Luz, S.A." stays a company; public enterprises (E.P.E., E.M.) are companies too — they are
 * state-owned, but companies by law.
 */
/** The words of PUBLIC_NAME, as alternatives of a regular expression. */
const PUBLIC_WORDS =
  'municipio|camara municipal|freguesia|freguesias|juntas? de freguesia|servicos municipalizados|' +
  'comunidade intermunicipal|area metropolitana|associacao de municipios|regiao autonoma|governo regional|' +
  'secretaria regional|ministerio|secretaria-geral|direcao-geral|direccao-geral|direcao regional|instituto|' +
  'universidade|escola|agrupamento de escolas|faculdade|politecnico|centro hospitalar|unidade local de saude|' +
  'administracao regional de saude|autoridade|agencia para|entidade reguladora|inspecao-geral|guarda nacional|' +
  'policia|forca aerea|exercito|marinha|estado-maior|tribunal|procuradoria|assembleia|presidencia';
const PUBLIC_NAME = new RegExp(String.raw`\b(${PUBLIC_WORDS})\b`);
const COMPANY_FORM =
  /(^|[\s,])(s\. ?a\.?|sa|lda\.?|l\.da|limitada|unipessoal|e\. ?p\. ?e\.?|epe|e\. ?m\.?|crl|ucrl|sgps)(?=[\s,.]|$)/;

function looksPublic(name: string): boolean {
  const folded = fold(name);
  return PUBLIC_NAME.test(folded) && !COMPANY_FORM.test(folded);
}

/**
 * Country of a Portuguese tax number's holder, when the number says it: residents → 'PT'; numbers issued to
 * non-residents (45, 71, 78, 98), placeholders and foreign ids → null (the contract files do not say where they are).
 */
export function countryFromNif(nif: string): string | null {
  if (taxNumberKind(nif) !== 'portuguese') return null;
  if (/^(45|71|78|98)/.test(nif)) return null;
  return 'PT';
}

/**
 * What a tax number is: a Portuguese NIF or NIPC (nine digits), a foreign tax id as the portal gives it (letters,
 * hyphens), or a placeholder — nine digits that pass the check digit but that the Autoridade Tributária issues to
 * no one: a first digit 0 (`000000000`), a 4 not followed by 5, or `999999990`, the generic number of a final
 * consumer. The portal shows a placeholder where no tax number was given (docs/data.md, "What the importer derives").
 */
export function taxNumberKind(nif: string): TaxNumberKind {
  if (!/^\d{9}$/.test(nif)) return 'foreign';
  return /^(0|4[0-46-9])/.test(nif) || nif === GENERIC_CONSUMER ? 'placeholder' : 'portuguese';
}

const GENERIC_CONSUMER = '999999990';

/**
 * Whether an entity's `kind` is a default rather than what its tax number says: a foreign id or a placeholder says
 * nothing of its holder, and such an entity is `company` (a foreign natural person shows as one).
 */
export function kindIsAssumed(nif: string, kind: EntityKind): boolean {
  return kind !== 'municipality' && taxNumberKind(nif) !== 'portuguese';
}
