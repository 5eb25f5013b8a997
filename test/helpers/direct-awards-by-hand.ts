/**
 * The two integrity checks of the CCP on direct procedures, done by hand over the portal's own records — the way a
 * journalist with a spreadsheet would, written here apart from src so that a test compares the service with it
 * (docs/integrity.md, "Repeated direct awards" and "Possible splitting"; the ceilings of docs/signals.md):
 *
 * - an award by value is an "Ajuste Direto Regime Geral" or a "Consulta Prévia" whose legal basis cites CCP art.
 *   19.º c)/d) (works) or 20.º n.º 1 c)/d) (goods and services), as Madeira's decree adapts them, or the Azores'
 *   decree art. 19.º a)/20.º a) (its ajuste direto); one buyer, one named supplier, a price;
 * - its regime: the regional decree it cites, else its buyer's council's region, else the general law;
 * - repeated direct awards (art. 113.º n.º 2): the earlier awards (a day before or more) of the same buyer to the same
 *   supplier, of the same kind, add up to the ceiling of this award's procedure;
 * - possible splitting: two or more awards of the buyer to the supplier, of one kind and CPV class (four digits),
 *   each under its own ceiling, within 60 days of the first, add up to the highest ceiling among them.
 */

/** A record of the portal's JSON export, with the fields these checks read. */
export interface PortalRecord {
  idcontrato: string;
  tipoprocedimento?: string | null;
  fundamentacao?: string | null;
  adjudicante?: string[];
  adjudicatarios?: string[];
  precoContratual: number | null;
  dataPublicacao: string;
  dataCelebracaoContrato?: string | null;
  cpv?: string[];
}

type Region = 'national' | 'azores' | 'madeira';
const AD: Record<Region, [goods: number, works: number]> = {
  national: [20_000, 30_000],
  madeira: [27_000, 40_500],
  azores: [75_000, 150_000],
};
const CP: Record<Region, [goods: number, works: number] | null> = {
  national: [75_000, 150_000],
  madeira: [101_250, 202_500],
  azores: null,
};

interface Award {
  id: string;
  buyer: string;
  supplier: string;
  works: boolean;
  cpvClass: string;
  price: number;
  day: string;
  /** Null where the regime has no such procedure (a consulta prévia in the Azores). */
  ceiling: number | null;
}

const nifOf = (party: string) => party.split(/\s+-\s+/)[0].trim();
const isoDay = (d: string) => d.split('/').reverse().join('-');
const daysFrom = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;

/** @param councilRegion a council's tax number → its region (the islands' councils), as data/municipalities.csv */
function awardsByValue(records: readonly PortalRecord[], councilRegion: ReadonlyMap<string, Region>): Award[] {
  const awards: Award[] = [];
  for (const r of records) {
    const basis = r.fundamentacao ?? '';
    const [buyers, suppliers] = [r.adjudicante ?? [], r.adjudicatarios ?? []];
    if (buyers.length !== 1 || suppliers.length !== 1 || /^RGPD/i.test(suppliers[0]) || r.precoContratual === null)
      continue;
    const azores = basis.includes('27/2015/A');
    const region: Region = azores
      ? 'azores'
      : basis.includes('34/2008/M')
        ? 'madeira'
        : (councilRegion.get(nifOf(buyers[0])) ?? 'national');
    const ad = r.tipoprocedimento === 'Ajuste Direto Regime Geral';
    const cp = r.tipoprocedimento === 'Consulta Prévia';
    const article = azores
      ? /^Artigo (19|20)\.º, alínea a\)/.exec(basis)
      : /^Artigo (19|20)\.º,(?: n\.º 1,)? alínea [cd]\)/.exec(basis);
    if (!(ad || (cp && !azores)) || !article) continue;
    if (article[1] === '20' && !azores && !basis.startsWith('Artigo 20.º, n.º 1,')) continue;
    const works = article[1] === '19';
    const ceilings = ad ? AD[region] : CP[region];
    awards.push({
      id: r.idcontrato,
      buyer: nifOf(buyers[0]),
      supplier: nifOf(suppliers[0]),
      works,
      cpvClass: (r.cpv?.[0] ?? '').slice(0, 4),
      price: r.precoContratual,
      day: isoDay(r.dataCelebracaoContrato || r.dataPublicacao),
      ceiling: ceilings ? ceilings[works ? 1 : 0] : null,
    });
  }
  return awards;
}

function groupBy(awards: readonly Award[], key: (a: Award) => string): Award[][] {
  const groups = new Map<string, Award[]>();
  for (const a of awards) groups.set(key(a), [...(groups.get(key(a)) ?? []), a]);
  return [...groups.values()];
}

/** The ids of the awards art. 113.º n.º 2 would have barred: the earlier awards' sum reaches this one's ceiling. */
export function repeatedAwardsByHand(records: readonly PortalRecord[], councils: ReadonlyMap<string, Region>) {
  const found = new Set<string>();
  for (const group of groupBy(awardsByValue(records, councils), (a) => `${a.buyer} ${a.supplier} ${a.works}`))
    for (const a of group) {
      const earlier = group.filter((x) => x.day < a.day).reduce((sum, x) => sum + x.price, 0);
      if (a.ceiling !== null && earlier >= a.ceiling) found.add(a.id);
    }
  return found;
}

/** The ids of the awards that are part of a possible split. */
export function splitsByHand(records: readonly PortalRecord[], councils: ReadonlyMap<string, Region>) {
  const found = new Set<string>();
  const under = awardsByValue(records, councils).filter((a) => a.ceiling !== null && a.price < a.ceiling);
  for (const group of groupBy(under, (a) => `${a.buyer} ${a.supplier} ${a.works} ${a.cpvClass}`))
    for (const start of group) {
      const inside = group.filter((x) => x.day >= start.day && daysFrom(start.day, x.day) <= 60);
      const highest = Math.max(...inside.map((x) => x.ceiling as number));
      const sum = inside.reduce((total, x) => total + x.price, 0);
      if (inside.length >= 2 && sum >= highest) for (const x of inside) found.add(x.id);
    }
  return found;
}
