/**
 * Portugal's two autonomous regions legislate their own public-contract rules (docs/signals.md, "Direct-award
 * ceilings by legal regime"), and a regional act says whose it is in its number: `N/YYYY/A` for the Azores,
 * `N/YYYY/M` for Madeira ("Decreto Legislativo Regional n.º 27/2015/A", "DLR nº 34/2008/M"). Read here once for
 * the importer (which keeps a record's `regime` when it names a region) and the direct-award detector.
 */
import { fold } from './text-match.js';
import { memoByText } from './text-memo.js';

export type Region = 'azores' | 'madeira';

/**
 * The region whose act a legal text cites, or null. The number is read with or without spaces around the slashes,
 * with a four- or two-digit year (`34/2008/M`, `34/08/M`), in any case; `5/2020/a)` is a number and an alínea, not
 * an act. National acts carry no region letter (`Decreto-Lei n.º 111-B/2017`, `Lei n.º 30/2021`): a text citing only
 * them names no region.
 */
export function regionOfLegalText(text: string | null | undefined): Region | null {
  return text ? regionOfText(text) : null;
}

/** Read once per text (lib/text-memo.ts): detection reads one legal basis per contract. */
const regionOfText = memoByText((text): Region | null => {
  const found = /(?:^|[^\d/])\d{1,3}\s*\/\s*(?:\d{4}|\d{2})\s*\/\s*([am])(?![\p{L}\d)])/u.exec(fold(text));
  return !found ? null : found[1] === 'a' ? 'azores' : 'madeira';
});
