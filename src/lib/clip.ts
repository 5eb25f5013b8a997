/**
 * At most `max` characters (and the parentheses it closes), cut at a word boundary with `…`; a parenthesis the cut
 * left open is closed after it — "(acidentes de trabalho, automóvel e…)" — so that what follows is not read inside it.
 */
export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  const kept = (space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.(-]+$/, '');
  const open = (kept.match(/\(/g)?.length ?? 0) - (kept.match(/\)/g)?.length ?? 0);
  return `${kept}…${')'.repeat(Math.max(0, open))}`;
}
