/**
 * A reading of a text kept by the text: a source words its procedure types and legal bases in a few hundred ways,
 * and detection reads them for every contract and again for each contract a buyer check compares it with (folding
 * and matching them was a twentieth of a detection run at a million contracts). Bounded: emptied when full, so that
 * free text passed by mistake costs memory no longer than HELD readings.
 */
const HELD = 10_000;

export function memoByText<T>(read: (text: string) => T): (text: string) => T {
  const kept = new Map<string, T>();
  return (text) => {
    if (kept.has(text)) return kept.get(text) as T;
    const value = read(text);
    if (kept.size >= HELD) kept.clear();
    kept.set(text, value);
    return value;
  };
}
