/**
 * The meaning of every free-text `q`: case- and accent-insensitive; each whitespace-separated token must
 * occur somewhere (as a substring) in the record's text fields.
 */

/** Lowercase, without diacritics: "Évora" → "evora", "São João" → "sao joao". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

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
