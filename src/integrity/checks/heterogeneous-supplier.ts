/**
 * R048, heterogeneous supplier: the contract's supplier supplies an outlying variety of things — more CPV divisions
 * than the upper fence of every comparable supplier of the same source (Cardinal's method, docs/integrity.md).
 */
import type { ContractDetailRecord } from '../../store/procurement-records.js';
import { type Finding, finding } from '../assessment.js';
import type { CheckContext, IntegrityCheck } from '../check.js';
import type { SupplierVariety, SupplierVarietyCorpus } from '../corpus.js';
import { type IntegrityType, threshold } from '../methodology.js';
import { roundStat } from '../quartiles.js';

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
    'Um fornecedor que ganha contratos em áreas muito diferentes pode ser um intermediário ou uma empresa ' +
    'de fachada; há também setores (construção, comércio geral) em que a variedade é legítima.',
  why_it_matters_en:
    'A supplier that wins contracts in very different fields may be an intermediary or a front company; ' +
    'some trades (builders, general retail) lawfully span many fields.',
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
};

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const divisions = (n: number) => counted(n, 'CPV division', 'CPV divisions');
const processes = (n: number) => counted(n, 'contracting process', 'contracting processes');

async function checkHeterogeneousSupplier(c: ContractDetailRecord, ctx: CheckContext): Promise<Finding> {
  const digits = threshold(HETEROGENEOUS_SUPPLIER, 'cpv_digits');
  const minimum = threshold(HETEROGENEOUS_SUPPLIER, 'minimum_contracting_processes');
  const unknown = { supplier_nif: null, contracting_processes: null, cpv_divisions: null };
  // Cardinal attributes an award's items to its supplier only when it has one: a consortium's split is unknown.
  if (c.suppliers.length !== 1) {
    const reason =
      c.suppliers.length === 0
        ? 'The record names no supplier.'
        : `The record names ${c.suppliers.length} suppliers: the method judges a contract with one supplier only ` +
          '(which of them supplies what is unknown).';
    return finding('not_assessable', reason, unknown);
  }
  const nif = c.suppliers[0].nif;
  if (nif === null) {
    const reason = 'The record gives no tax number for the supplier: its other contracts cannot be found.';
    return finding('not_assessable', reason, unknown);
  }
  const corpus = await ctx.corpus.supplierVariety(c.source, digits, minimum);
  const own = corpus.bySupplier.get(nif) ?? { processes: 0, cpvPrefixes: 0 };
  const values = { supplier_nif: nif, contracting_processes: own.processes, cpv_divisions: own.cpvPrefixes };
  if (own.processes < minimum || corpus.fences === null) {
    const reason =
      `The supplier has ${processes(own.processes)} with a CPV code at source ${c.source}, fewer ` +
      `than the ${minimum} the method needs before its variety says anything.`;
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
  const compared =
    `${divisions(own.cpvPrefixes)} over its ${processes(own.processes)} at source ${c.source}; ` +
    `the upper fence over the ${f.n} suppliers there with at least ${minimum} processes is ${stats.upper_fence} ` +
    `(Q1 ${stats.q1}, Q3 ${stats.q3}).`;
  return isHeterogeneous(own, corpus, minimum)
    ? finding(
        'flagged',
        `The supplier's contracts span ${compared} Its contracts: GET /v1/procurement/contracts?supplier=${nif}.`,
        values,
        { corpus: stats },
      )
    : finding('not_flagged', `Under the fence: ${compared}`, values, { corpus: stats });
}

/** The check's verdict on a supplier of the corpus: what detection compares run to run (integrity/standing.ts). */
export function isHeterogeneous(own: SupplierVariety, corpus: SupplierVarietyCorpus, minimum: number): boolean {
  return own.processes >= minimum && corpus.fences !== null && own.cpvPrefixes >= corpus.fences.upper_fence;
}

export const HETEROGENEOUS_SUPPLIER_CHECK: IntegrityCheck = {
  type: HETEROGENEOUS_SUPPLIER,
  assess: checkHeterogeneousSupplier,
};
