/**
 * The meaning of every free-text `q`: case- and accent-insensitive; each whitespace-separated token must
 * occur somewhere (as a substring) in the record's text fields.
 */

/** Lowercase, without diacritics: "Évora" → "evora", "São João" → "sao joao". */
export function fold(text: string): string {
  // Portuguese text stays within Latin-1, where no character is a combining mark: each folds on its own, from a
  // table, at half the cost of normalizing the whole text (the alert matcher folds every item it reads).
  if (BEYOND_LATIN1.test(text)) return foldByNormalizing(text);
  return text.replace(LATIN1_LETTERS, (ch) => LATIN1_FOLDED[ch.charCodeAt(0) - 0xa0]).toLowerCase();
}

/** The definition: decomposed (NFD), combining marks removed, lowercase. */
function foldByNormalizing(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** A UTF-16 code unit past U+00FF (a surrogate too). */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;
/** Latin-1's letters and signs; below U+00A0 (ASCII, control characters) lowercasing is all there is to folding. */
const LATIN1_LETTERS = /[\u00a0-\u00ff]/g;
/** U+00A0 to U+00FF, each by the definition: "Ç" → "C", "º" → "º". */
const LATIN1_FOLDED = Array.from({ length: 0x60 }, (_, i) => foldByNormalizing(String.fromCharCode(0xa0 + i)));

export function queryTokens(q: string | undefined): string[] {
  return q === undefined ? [] : fold(q).split(/\s+/).filter(Boolean);
}

/** True when every token occurs in at least one of the (already folded) fields. */
export function matchesTokens(tokens: readonly string[], foldedText: string): boolean {
  return tokens.every((t) => foldedText.includes(t));
}

/**
 * A name reduced for comparing names with each other (lookups): folded, every run of punctuation or spaces
 * as one space. "Albergaria-a-Velha", "albergaria-a-velha" and "ALBERGARIA A VELHA" all give "albergaria a velha".
 */
export function nameKey(text: string): string {
  return fold(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
