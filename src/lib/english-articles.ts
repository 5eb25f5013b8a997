/**
 * English's indefinite article before a word: "an open procedure", "a keyword rule", "an admin". Told by the first
 * letter, which holds for the words the service puts after it (its own vocabulary: roles, matcher types, procedure
 * kinds), not for English at large ("an hour", "a user").
 */
export function withIndefinite(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}
