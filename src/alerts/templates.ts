/**
 * Predefined subscriptions: alert rules an account turns on by key (`munidata alerts subscribe --template KEY`)
 * instead of writing the matcher itself. Seeded by `migrate` (upsert by key: a template added here reaches an
 * existing store with its next migrate; a changed one is updated in place, and the rules made from it earlier keep
 * the matcher they were made with). Every template is national unless the subscriber names a place.
 */
import type { AlertTemplateInput } from '../store/signal-records.js';

export const ALERT_TEMPLATES: readonly AlertTemplateInput[] = Object.freeze([
  {
    key: 'open-tenders-construction',
    name: 'Concursos abertos de empreitadas de obras',
    description: 'Anúncios de procedimentos para obras públicas (CPV 45: construção, reabilitação, vias, redes).',
    matcher_type: 'cpv',
    params: { cpv_prefixes: ['45'] },
    source_types: ['procurement_announcement'],
    target_scope: 'national',
  },
  {
    key: 'open-tenders-it',
    name: 'Concursos abertos de informática e software',
    description: 'Anúncios de procedimentos para serviços informáticos (CPV 72) e pacotes de software (CPV 48).',
    matcher_type: 'cpv',
    params: { cpv_prefixes: ['72', '48'] },
    source_types: ['procurement_announcement'],
    target_scope: 'national',
  },
  {
    key: 'open-tenders-engineering',
    name: 'Concursos abertos de arquitetura e engenharia',
    description: 'Anúncios de procedimentos para projetos, fiscalização e consultoria técnica (CPV 71).',
    matcher_type: 'cpv',
    params: { cpv_prefixes: ['71'] },
    source_types: ['procurement_announcement'],
    target_scope: 'national',
  },
  {
    key: 'open-tenders-environment',
    name: 'Concursos abertos de resíduos, limpeza e ambiente',
    description:
      'Anúncios de procedimentos para recolha de resíduos, limpeza urbana, saneamento e espaços verdes (CPV 90).',
    matcher_type: 'cpv',
    params: { cpv_prefixes: ['90'] },
    source_types: ['procurement_announcement'],
    target_scope: 'national',
  },
  {
    key: 'deadlines-closing',
    name: 'Prazos de concursos a terminar',
    description: 'Concursos abertos cujo prazo de apresentação de propostas termina dentro de 14 dias.',
    matcher_type: 'signal_type',
    params: { signal_types: ['deadline_closing'] },
    source_types: ['signal'],
    target_scope: 'national',
  },
  {
    key: 'direct-awards-above-ceiling',
    name: 'Ajustes diretos acima do limite',
    description:
      'Ajustes diretos de valor superior ao limite do regime geral (20 000 € em bens e serviços, 30 000 € em ' +
      'empreitadas).',
    matcher_type: 'signal_type',
    params: { signal_types: ['direct_award_high_value'] },
    source_types: ['signal'],
    target_scope: 'national',
  },
  {
    key: 'contracts-awarded',
    name: 'Contratos adjudicados de valor médio ou superior',
    description: 'Contratos de 75 000 € ou mais publicados no portal BASE.',
    matcher_type: 'signal_type',
    params: { signal_types: ['contract_awarded'] },
    source_types: ['signal'],
    target_scope: 'national',
  },
  {
    key: 'contract-amendments',
    name: 'Modificações de contratos',
    description: 'Modificações contratuais que alteram o preço de um contrato.',
    matcher_type: 'signal_type',
    params: { signal_types: ['contract_amended'] },
    source_types: ['signal'],
    target_scope: 'national',
  },
  {
    key: 'indicator-jumps',
    name: 'Variações invulgares e máximos históricos de indicadores',
    description:
      'Variações de um período para o seguinte muito maiores do que o habitual, e valores mais altos ou mais baixos ' +
      'de uma série.',
    matcher_type: 'signal_type',
    params: { signal_types: ['indicator_jump', 'indicator_record'] },
    source_types: ['signal'],
    target_scope: 'national',
  },
  {
    key: 'integrity-flags',
    name: 'Indicadores de risco na contratação',
    description:
      'Contratos assinalados por um indicador de integridade (prazo curto, proposta única, concentração, ajustes ' +
      'diretos repetidos, possível fracionamento…) com confiança de 0,8 ou mais: indícios para olhar com mais ' +
      'atenção, nunca acusações.',
    matcher_type: 'signal_type',
    params: { signal_families: ['integrity'], min_confidence: 0.8 },
    source_types: ['signal'],
    target_scope: 'national',
  },
  {
    key: 'integrity-ccp',
    name: 'Ajustes diretos repetidos e possível fracionamento (CCP)',
    description:
      'Contratos assinalados pelos indicadores assentes no Código dos Contratos Públicos: convites repetidos ao ' +
      'mesmo fornecedor (art. 113.º, n.º 2) e possível fracionamento da despesa (art. 22.º).',
    matcher_type: 'signal_type',
    params: { signal_types: ['repeated_direct_awards', 'possible_splitting'] },
    source_types: ['signal'],
    target_scope: 'national',
  },
]);
