/**
 * R025, excessive unsuccessful bids: a competitor that lost this contract is a top tenderer of the source that
 * loses an outlying share of its bids — the "superfluous losing bidder" a colluding partner may use to mimic
 * competition (Cardinal's method, docs/integrity.md).
 */
import type { ContractDetailRecord } from '../../store/procurement-records.js';
import { type Finding, finding } from '../assessment.js';
import { soleSupplierNif } from '../buyer-contracts.js';
import type { CheckContext, IntegrityCheck } from '../check.js';
import { type TendererBids, type TendererBidsCorpus, unsuccessfulShare } from '../corpus.js';
import { type IntegrityType, threshold } from '../methodology.js';
import { roundStat } from '../quartiles.js';
import { decimalPt, percentSaid } from '../said.js';

export const EXCESSIVE_UNSUCCESSFUL_BIDS: IntegrityType = {
  key: 'excessive_unsuccessful_bids',
  code: 'R025',
  version: 1,
  label_pt: 'Excesso de propostas sem sucesso',
  label_en: 'Excessive unsuccessful bids',
  measures_en:
    'For each competitor that lost the contract (named a competitor, not the supplier): its share of unsuccessful ' +
    'bids — the contracting processes of the same source it bid in and did not win, over all it bid in. Flagged ' +
    "when one is a top tenderer (as many bids as the 75th percentile of every tenderer's, or more) whose share is " +
    "at or above the upper fence (Q3 + 1.5 × IQR, type-8 quartiles) of every tenderer's share: Cardinal's R025, " +
    'a win ratio at or below Q1 − 1.5 × IQR, read from the other side (the same tenderers).',
  measures_pt:
    'Para cada concorrente que perdeu o contrato: a proporção das suas propostas sem sucesso nos ' +
    'procedimentos da mesma fonte em que concorreu. Assinalado quando um deles é um concorrente frequente ' +
    '(tantas propostas como o percentil 75 de todos, ou mais) com proporção igual ou acima da barreira ' +
    'superior (Q3 + 1,5 × AIQ) da de todos os concorrentes: o R025 do Cardinal.',
  why_it_matters_pt:
    'Um concorrente frequente que perde quase sempre pode estar a apresentar propostas de cobertura, um ' +
    'padrão associado a conluio entre concorrentes; também pode ser apenas um concorrente pouco ' +
    'competitivo.',
  why_it_matters_en:
    'A frequent bidder that nearly always loses may be submitting cover bids, a pattern associated with ' +
    'bid rigging; it may also simply be an uncompetitive bidder.',
  next_step_pt:
    'Ver os procedimentos em que esse concorrente participou e quem os ganhou: um padrão de rotação entre ' +
    'as mesmas empresas merece atenção.',
  reads_beyond_record: true,
  fields: ['competitors', 'suppliers'],
  thresholds: [
    {
      key: 'top_tenderer_percentile',
      value: 75,
      unit: 'percentile',
      source: "Cardinal's R025 default (`percentile`)",
    },
  ],
  legal_basis: null,
  caveat_en:
    "A statistical indicator, not a finding of collusion. The portal's list of competitors may be incomplete and " +
    'does not say which bids were excluded, so every competitor counts as a bid; a record that names no ' +
    'competitor (none in the real copy in data/real/) is not assessable. Only contracts with one supplier count.',
  caveat_pt:
    'Um indicador estatístico, não uma conclusão de conluio. A lista de concorrentes do portal pode estar ' +
    'incompleta e não diz que propostas foram excluídas, pelo que cada concorrente conta como uma proposta; um ' +
    'registo que não indica nenhum concorrente (nenhum na cópia real em data/real/) não é avaliável. Só contam os ' +
    'contratos com um único adjudicatário.',
};

const share = percentSaid;

async function checkExcessiveUnsuccessfulBids(c: ContractDetailRecord, ctx: CheckContext): Promise<Finding> {
  const percentile = threshold(EXCESSIVE_UNSUCCESSFUL_BIDS, 'top_tenderer_percentile');
  const unknown = { tenderer_nif: null, bids: null, unsuccessful_bids: null, unsuccessful_share: null };
  if (c.competitors.length === 0) {
    const reason = {
      en: 'The record names no competitor: which bids lost cannot be told.',
      pt: 'O registo não indica nenhum concorrente: não se pode saber que propostas perderam.',
    };
    return finding('not_assessable', reason, unknown);
  }
  // Cardinal counts a process whose one award has one supplier: with several, who lost is unknown.
  const supplier = soleSupplierNif(c);
  if (supplier === null) {
    const reason =
      c.suppliers.length === 1
        ? {
            en: 'The record gives no tax number for the supplier: which competitors lost cannot be told.',
            pt: 'O registo não indica o NIF do adjudicatário: não se pode saber que concorrentes perderam.',
          }
        : c.suppliers.length === 0
          ? {
              en: 'The record names no supplier: which competitors lost cannot be told.',
              pt: 'O registo não indica nenhum adjudicatário: não se pode saber que concorrentes perderam.',
            }
          : {
              en:
                `The record names ${c.suppliers.length} suppliers: the method judges a contract with one supplier ` +
                'only.',
              pt:
                `O registo indica ${c.suppliers.length} adjudicatários: o método só avalia contratos com um único ` +
                'adjudicatário.',
            };
    return finding('not_assessable', reason, unknown);
  }
  const named = c.competitors.map((p) => p.nif).filter((nif): nif is string => nif !== null);
  const losers = [...new Set(named.filter((nif) => nif !== supplier))];
  if (losers.length === 0) {
    return c.competitors.some((p) => p.nif === null)
      ? finding(
          'not_assessable',
          {
            en: 'The competitors that lost have no tax number: their other bids are unknown.',
            pt: 'Os concorrentes que perderam não têm NIF: as suas outras propostas são desconhecidas.',
          },
          unknown,
        )
      : finding(
          'not_flagged',
          {
            en: 'No competitor lost: the supplier is the only one the record names.',
            pt: 'Nenhum concorrente perdeu: o adjudicatário é o único que o registo indica.',
          },
          unknown,
        );
  }
  const corpus = await ctx.corpus.tendererBids(c.source, percentile);
  const f = corpus.fences;
  const top = corpus.topBids;
  // Every loser of this contract is in the corpus, so it has a fence; this keeps the types honest.
  if (f === null || top === null) {
    return finding(
      'not_assessable',
      { en: 'The source has no tenderer.', pt: 'A fonte não tem concorrentes.' },
      unknown,
    );
  }
  const judged = losers
    .map((nif) => {
      const bids = corpus.byTenderer.get(nif) ?? { bids: 0, wins: 0 };
      const unsuccessful = bids.bids > 0 ? unsuccessfulShare(bids) : 0;
      return { nif, ...bids, unsuccessful, flagged: isExcessiveTenderer(bids, corpus) };
    })
    // The one the answer reports: a flagged tenderer first, then the highest share, then the most bids.
    .sort((a, b) => Number(b.flagged) - Number(a.flagged) || b.unsuccessful - a.unsuccessful || b.bids - a.bids);
  const worst = judged[0];
  const values = {
    tenderer_nif: worst.nif,
    bids: worst.bids,
    unsuccessful_bids: worst.bids - worst.wins,
    unsuccessful_share: roundStat(worst.unsuccessful),
  };
  const stats = {
    q1: roundStat(f.q1),
    q3: roundStat(f.q3),
    upper_fence: roundStat(f.upper_fence),
    top_tenderer_bids: roundStat(top),
    tenderers: f.n,
    tenderer_unsuccessful_share: values.unsuccessful_share,
  };
  const fence = {
    en:
      `the upper fence of the unsuccessful shares of ${f.n === 1 ? 'the one tenderer' : `the ${f.n} tenderers`} ` +
      `of source ${c.source} is ` +
      `${share(f.upper_fence).en} (Q1 ${share(f.q1).en}, Q3 ${share(f.q3).en}); a top tenderer has ` +
      `${stats.top_tenderer_bids} bids or more`,
    pt:
      `a barreira superior das percentagens de propostas perdidas ` +
      `${f.n === 1 ? 'do único concorrente' : `dos ${f.n} concorrentes`} da fonte ${c.source} é ` +
      `${share(f.upper_fence).pt} (Q1 ${share(f.q1).pt}, Q3 ${share(f.q3).pt}); um grande concorrente tem ` +
      `${decimalPt(stats.top_tenderer_bids)} propostas ou mais`,
  };
  // Cardinal skips R025 when its lower fence on the win ratio is not above 0 — here, when the fence on the
  // unsuccessful share is not under 100 %: most tenderers never win, and the top ones would nearly all be flagged.
  if (f.upper_fence >= 1) {
    const reason = {
      en: `The corpus leaves no room for an outlier: ${fence.en}. Cardinal's method does not judge then.`,
      pt: `O corpus não deixa margem para um valor atípico: ${fence.pt}. O método do Cardinal não avalia nesse caso.`,
    };
    return finding('not_assessable', reason, values, { corpus: stats });
  }
  const rate = share(worst.unsuccessful);
  const lost = {
    en: `NIF ${worst.nif} lost ${values.unsuccessful_bids} of its ${worst.bids} bids (${rate.en})`,
    pt: `o NIF ${worst.nif} perdeu ${values.unsuccessful_bids} das suas ${worst.bids} propostas (${rate.pt})`,
  };
  const flagged = judged.filter((t) => t.flagged);
  if (flagged.length === 0) {
    const none =
      losers.length === 1
        ? { en: 'The competitor that lost is not', pt: 'O concorrente que perdeu não é' }
        : {
            en: `None of the ${losers.length} competitors that lost is`,
            pt: `Nenhum dos ${losers.length} concorrentes que perderam é`,
          };
    const reason = {
      en: `${none.en} a top tenderer at or above the fence; the highest share: ${lost.en}; ${fence.en}.`,
      pt:
        `${none.pt} um grande concorrente na barreira ou acima dela; a percentagem mais alta: ${lost.pt}; ` +
        `${fence.pt}.`,
    };
    return finding('not_flagged', reason, values, { corpus: stats });
  }
  const also = flagged.slice(1).map((t) => `NIF ${t.nif}`);
  const reason = {
    en:
      `A competitor that lost is a top tenderer at or above the fence: ${lost.en}` +
      `${also.length > 0 ? ` (also ${also.join(', ')})` : ''}; ${fence.en}.`,
    pt:
      `Um concorrente que perdeu é um grande concorrente na barreira ou acima dela: ${lost.pt}` +
      `${also.length > 0 ? ` (também ${also.join(', ')})` : ''}; ${fence.pt}.`,
  };
  return finding('flagged', reason, values, { corpus: stats });
}

/**
 * The check's verdict on a tenderer of the corpus (a top tenderer at or above the fence), what detection compares
 * run to run (integrity/standing.ts). A corpus whose fence is not under 100 % judges no one.
 */
export function isExcessiveTenderer(bids: TendererBids, corpus: TendererBidsCorpus): boolean {
  const { fences: f, topBids: top } = corpus;
  if (f === null || top === null || f.upper_fence >= 1 || bids.bids === 0) return false;
  return bids.bids >= top && unsuccessfulShare(bids) >= f.upper_fence;
}

export const EXCESSIVE_UNSUCCESSFUL_BIDS_CHECK: IntegrityCheck = {
  type: EXCESSIVE_UNSUCCESSFUL_BIDS,
  assess: checkExcessiveUnsuccessfulBids,
};
