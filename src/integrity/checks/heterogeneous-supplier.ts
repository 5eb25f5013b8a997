/**
 * R048, heterogeneous supplier: the contract's supplier supplies an outlying variety of things — more CPV divisions
 * than the upper fence of every comparable supplier of the same source (Cardinal's method, docs/integrity.md).
 */
import type { ContractDetailRecord } from '../../store/procurement-records.js';
import { type Finding, finding, type Said } from '../assessment.js';
import type { CheckContext, IntegrityCheck } from '../check.js';
import type { SupplierVariety, SupplierVarietyCorpus } from '../corpus.js';
import { type IntegrityType, threshold } from '../methodology.js';
import { roundStat } from '../quartiles.js';
import { counted, decimalPt } from '../said.js';

export const HETEROGENEOUS_SUPPLIER: IntegrityType = {
  key: 'heterogeneous_supplier',
  code: 'R048',
  version: 1,
  label_pt: 'Fornecedor heterogéneo',
  label_en: 'Heterogeneous supplier',
  measures_en:
    "The variety of what the contract's supplier supplies: the distinct CPV divisions (the codes' first two " +
    'digits) over the contracts of the same source that name it alone, compared with the upper fence ' +
    '(Q3 + 1.5 × IQR, type-8 quartiles) of the varieties of every supplier there with at least 20 contracting ' +
    'processes; flagged at or above the fence.',
  measures_pt:
    'A variedade do que o adjudicatário fornece: as divisões CPV distintas (os dois primeiros dígitos) ' +
    'dos contratos da mesma fonte em que é o único adjudicatário, comparadas com a barreira superior (Q3 ' +
    '+ 1,5 × AIQ, quartis do tipo 8) das variedades de todos os fornecedores com pelo menos 20 ' +
    'procedimentos; assinalado na barreira ou acima.',
  why_it_matters_pt:
    'Ganhar contratos em áreas muito diferentes é invulgar: em alguns ramos (construção, comércio geral) é ' +
    'normal, noutros pode indicar que o fornecedor revende o que outros produzem, e a entidade pagaria a ' +
    'intermediação. Só a atividade do fornecedor o esclarece.',
  why_it_matters_en:
    'Winning contracts in very different fields is unusual: normal in some trades (builders, general retail), in ' +
    'others it can mean the supplier resells what others make, and the buyer pays for the middleman. Only the ' +
    "supplier's line of business tells which.",
  next_step_pt:
    'Consultar os outros contratos do fornecedor e o seu objeto social (registo comercial) para ver se a ' +
    'variedade se explica pela atividade.',
  reads_beyond_record: true,
  fields: ['suppliers', 'cpv'],
  thresholds: [
    { key: 'cpv_digits', value: 2, unit: 'count', source: "Cardinal's R048 default (`digits`: the CPV division)" },
    {
      key: 'minimum_contracting_processes',
      value: 20,
      unit: 'count',
      source: "Cardinal's R048 default (`minimum_contracting_processes`)",
    },
  ],
  legal_basis: null,
  caveat_en:
    'A statistical indicator, not a rule: some trades (builders, general retailers) lawfully span many divisions. ' +
    'Only contracts that name one supplier with a tax number count, as in Cardinal; a process is a procedure id, ' +
    'or the contract itself when the portal gives none.',
  caveat_pt:
    'Um indicador estatístico, não uma regra: alguns ramos (construtores, comércio geral) abrangem licitamente ' +
    'muitas divisões. Só contam os contratos que indicam um adjudicatário com NIF, como no Cardinal; um processo ' +
    'é um id de procedimento, ou o próprio contrato quando o portal não o dá.',
};

const divisions = (n: number): Said => ({
  en: counted(n, 'CPV division', 'CPV divisions'),
  pt: counted(n, 'divisão CPV', 'divisões CPV'),
});
const processes = (n: number): Said => ({
  en: counted(n, 'contracting process', 'contracting processes'),
  pt: counted(n, 'processo de contratação', 'processos de contratação'),
});

async function checkHeterogeneousSupplier(c: ContractDetailRecord, ctx: CheckContext): Promise<Finding> {
  const digits = threshold(HETEROGENEOUS_SUPPLIER, 'cpv_digits');
  const minimum = threshold(HETEROGENEOUS_SUPPLIER, 'minimum_contracting_processes');
  const unknown = { supplier_nif: null, contracting_processes: null, cpv_divisions: null };
  // Cardinal attributes an award's items to its supplier only when it has one: a consortium's split is unknown.
  if (c.suppliers.length !== 1) {
    const reason =
      c.suppliers.length === 0
        ? { en: 'The record names no supplier.', pt: 'O registo não indica nenhum adjudicatário.' }
        : {
            en:
              `The record names ${c.suppliers.length} suppliers: the method judges a contract with one supplier only ` +
              '(which of them supplies what is unknown).',
            pt:
              `O registo indica ${c.suppliers.length} adjudicatários: o método só avalia contratos com um único ` +
              'adjudicatário (não se sabe qual deles fornece o quê).',
          };
    return finding('not_assessable', reason, unknown);
  }
  const nif = c.suppliers[0].nif;
  if (nif === null) {
    const reason = {
      en: 'The record gives no tax number for the supplier: its other contracts cannot be found.',
      pt: 'O registo não indica o NIF do adjudicatário: os seus outros contratos não podem ser encontrados.',
    };
    return finding('not_assessable', reason, unknown);
  }
  const corpus = await ctx.corpus.supplierVariety(c.source, digits, minimum);
  const own = corpus.bySupplier.get(nif) ?? { processes: 0, cpvPrefixes: 0 };
  const values = { supplier_nif: nif, contracting_processes: own.processes, cpv_divisions: own.cpvPrefixes };
  if (own.processes < minimum || corpus.fences === null) {
    const reason = {
      en:
        `The supplier has ${processes(own.processes).en} with a CPV code at source ${c.source}, fewer ` +
        `than the ${minimum} the method needs before its variety says anything.`,
      pt:
        `O adjudicatário tem ${processes(own.processes).pt} com código CPV na fonte ${c.source}, menos ` +
        `do que os ${minimum} de que o método precisa para que a sua variedade diga alguma coisa.`,
    };
    return finding('not_assessable', reason, values);
  }
  const f = corpus.fences;
  const stats = {
    q1: roundStat(f.q1),
    q3: roundStat(f.q3),
    upper_fence: roundStat(f.upper_fence),
    suppliers: f.n,
    supplier_cpv_divisions: own.cpvPrefixes,
  };
  const compared = {
    en:
      `${divisions(own.cpvPrefixes).en} over its ${processes(own.processes).en} at source ${c.source}; ` +
      `the upper fence over ${f.n === 1 ? 'the one supplier' : `the ${f.n} suppliers`} there with at least ` +
      `${minimum} processes is ${stats.upper_fence} ` +
      `(Q1 ${stats.q1}, Q3 ${stats.q3}).`,
    pt:
      `${divisions(own.cpvPrefixes).pt} nos seus ${processes(own.processes).pt} na fonte ${c.source}; ` +
      `a barreira superior ${f.n === 1 ? 'do único adjudicatário' : `dos ${f.n} adjudicatários`} dessa fonte com ` +
      `pelo menos ${minimum} processos é ` +
      `${decimalPt(stats.upper_fence)} (Q1 ${decimalPt(stats.q1)}, Q3 ${decimalPt(stats.q3)}).`,
  };
  if (isHeterogeneous(own, corpus, minimum)) {
    const list = `GET /v1/procurement/contracts?supplier=${nif}`;
    const reason = {
      en: `The supplier's contracts span ${compared.en} Its contracts: ${list}.`,
      pt: `Os contratos do adjudicatário abrangem ${compared.pt} Os seus contratos: ${list}.`,
    };
    return finding('flagged', reason, values, { corpus: stats });
  }
  const reason = { en: `Under the fence: ${compared.en}`, pt: `Abaixo da barreira: ${compared.pt}` };
  return finding('not_flagged', reason, values, { corpus: stats });
}

/** The check's verdict on a supplier of the corpus: what detection compares run to run (integrity/standing.ts). */
export function isHeterogeneous(own: SupplierVariety, corpus: SupplierVarietyCorpus, minimum: number): boolean {
  return own.processes >= minimum && corpus.fences !== null && own.cpvPrefixes >= corpus.fences.upper_fence;
}

export const HETEROGENEOUS_SUPPLIER_CHECK: IntegrityCheck = {
  type: HETEROGENEOUS_SUPPLIER,
  assess: checkHeterogeneousSupplier,
};
