/** Demo deployment: an engineering consultancy around Lisboa (Lisboa, Setúbal, Santarém). Fictional company. */
import type { DeploymentSpec } from '../deployment-spec.js';
import { SKILL_IDS } from '../skills/ids.js';

export const ENGINEERING_CONSULTANCY: DeploymentSpec = {
  slug: 'atlas-engenharia',
  name: 'Atlas — engineering and public works advice',
  description:
    'Atlas Engenharia e Projeto does structural assessments, licensing projects and energy certificates, and helps ' +
    'companies prepare bids for public works, in the districts of Lisboa, Setúbal and Santarém. The agent assesses ' +
    'projects, researches public buyers and compares municipalities’ procurement, tracks open tenders, and quotes ' +
    'visits.',
  company: { name: 'Atlas Engenharia e Projeto, S.A. (demo)', website: 'https://atlas-engenharia.example' },
  channels: ['a2a', 'mcp'],
  service_area: { municipalities: [], districts: ['Lisboa', 'Setúbal', 'Santarém'] },
  knowledge: [
    {
      id: 'structural-assessment',
      title: 'Structural assessment of existing buildings',
      body:
        'Inspection, material testing and a report on the safety of an existing building, as required before a ' +
        'change of use or an extension. Report in 3 to 6 weeks depending on the area.',
      tags: ['structures', 'inspection'],
    },
    {
      id: 'energy-certificate',
      title: 'Energy certificates (SCE)',
      body:
        'Energy certificates for sale, rent and licensing, issued by a qualified expert after a visit. Price depends ' +
        'on the useful floor area; valid 10 years for dwellings.',
      tags: ['energy', 'certificate', 'price'],
    },
    {
      id: 'tender-support',
      title: 'Bid preparation for public works',
      body:
        'We read the tender documents, check the qualification requirements, price the bill of quantities and ' +
        'assemble the proposal for submission on the procurement platform. We follow BASE contract data to benchmark ' +
        'prices.',
      tags: ['public', 'tender', 'procurement'],
    },
  ],
  criteria: {
    project_types: [
      {
        type: 'structural_assessment',
        label: 'Structural assessment',
        area_m2: { min: 50, max: 20000 },
        lead_time_days: 10,
      },
      {
        type: 'building_licensing',
        label: 'Building licensing project',
        area_m2: { min: 80, max: 10000 },
        lead_time_days: 30,
      },
      { type: 'energy_certification', label: 'Energy certificate', area_m2: { max: 5000 }, lead_time_days: 5 },
      { type: 'tender_support', label: 'Public tender bid support', lead_time_days: 3 },
    ],
    area_m2: { max: 20000 },
    lead_time_days: 10,
  },
  skills: [...SKILL_IDS], // the demo agents show every skill the host offers
  procurement_lookups: true,
  artifacts: [
    {
      id: 'tender-checklist',
      title: 'Public works tender: the bidder’s checklist',
      summary: 'The documents, deadlines and qualification checks a bidder should tick before submitting.',
      media_type: 'text/markdown',
      body:
        '# Bidder’s checklist\n\n- Read the programme and the specifications twice.\n' +
        '- Check the qualification (alvará) class against the base price.\n' +
        '- Ask questions within the first third of the deadline.\n- Sign every document with a qualified signature.\n',
      released: true,
    },
    {
      id: 'municipal-benchmark',
      title: 'Municipal procurement benchmark (internal)',
      summary: 'Internal working paper.',
      media_type: 'text/plain',
      body: 'Internal.',
      released: false,
    },
  ],
  actions: [
    {
      id: 'site_visit',
      title: 'Technical site visit',
      description: 'An engineer visits the building and writes a first technical opinion.',
      pricing: {
        base_eur: 350,
        per_m2_eur: 0,
        minimum_eur: 350,
        vat_rate: 0.23,
        urgent_surcharge_rate: 0.5,
        outside_area_surcharge_eur: 120,
      },
      quote_valid_days: 7,
      terms: 'Visit within 10 working days (3 if urgent). The opinion follows within 5 working days.',
    },
    {
      id: 'energy_certificate',
      title: 'Energy certificate',
      description: 'Visit and issue of the energy certificate for the useful floor area given.',
      pricing: { base_eur: 120, per_m2_eur: 0.9, minimum_eur: 250, vat_rate: 0.23, urgent_surcharge_rate: 0.3 },
      quote_valid_days: 30,
      terms: 'The certificate fee of the energy agency is included.',
    },
  ],
};
