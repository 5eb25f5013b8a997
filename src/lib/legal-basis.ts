/**
 * The article a contract's legal basis (`fundamentacao`) cites first, with its number and alínea (docs/integrity.md,
 * "Repeated direct awards"). The portal writes it "Artigo 20.º, n.º 1, alínea d) do Código dos Contratos Públicos";
 * "alínea d) do n.º 1 do artigo 20.º" and "art. 20.º n.º 1 al. d)" are read too. On the ground floor: the integrity
 * checks read from it how the procedure was chosen, and the ceilings (lib/direct-award-regime.ts) which kind of
 * contract the procedure was chosen for.
 */
import { fold } from './text-match.js';
import { memoByText } from './text-memo.js';

export interface CitedArticle {
  article: number;
  /** The número, when cited ("n.º 1"). */
  number?: string;
  /** The alínea's letter, when cited ("alínea d)"). */
  alinea?: string;
}

const ARTICLE_FIRST = /^art(?:igo)?\s+(\d+)(?:\s+n\s+(\d+))?(?:\s+al(?:inea)?\s+([a-z])\))?/;
const ALINEA_FIRST = /^al(?:inea)?\s+([a-z])\)\s+(?:do\s+n\s+(\d+)\s+)?do\s+art(?:igo)?\s+(\d+)/;

/** The first article cited, or null when the text does not begin with one. Read once per text (lib/text-memo.ts). */
export const citedArticle = memoByText((legalBasis): CitedArticle | null => {
  const text = fold(legalBasis)
    .replace(/[^a-z0-9()]+/g, ' ')
    .trim();
  const first = ARTICLE_FIRST.exec(text);
  const reversed = first ? null : ALINEA_FIRST.exec(text);
  const article = Number(first?.[1] ?? reversed?.[3]);
  if (!Number.isInteger(article)) return null;
  const number = first?.[2] ?? reversed?.[2];
  const alinea = first?.[3] ?? reversed?.[1];
  return { article, ...(number === undefined ? {} : { number }), ...(alinea === undefined ? {} : { alinea }) };
});
