/** Demo deployment: a solar installer in the north (Porto, Braga, Viana do Castelo). Fictional company. */
import type { DeploymentSpec } from '../deployment-spec.js';
import { SKILL_IDS } from '../skills/ids.js';

export const SOLAR_INSTALLER: DeploymentSpec = {
  slug: 'sol-do-norte',
  name: 'Sol do Norte — solar installations',
  description:
    'Sol do Norte Energia designs and installs photovoltaic systems and home batteries for homes, farms and ' +
    'businesses in the districts of Porto and Braga and in Viana do Castelo. The agent checks whether a place is ' +
    'served, assesses a project, quotes a site survey or an installation proposal, and follows public tenders for ' +
    'solar on public buildings.',
  company: {
    name: 'Sol do Norte Energia, Lda. (demo)',
    nif: '999999990',
    website: 'https://sol-do-norte.example',
    email: 'agent@sol-do-norte.example',
  },
  channels: ['a2a', 'mcp'],
  service_area: { municipalities: ['Viana do Castelo'], districts: ['Porto', 'Braga'] },
  knowledge: [
    {
      id: 'residential-pv',
      title: 'Residential photovoltaic systems',
      body:
        'We install grid-connected photovoltaic systems from 2 kWp to 15 kWp on tiled, flat and metal roofs. A ' +
        'typical home in the north produces about 1 350 kWh per installed kWp a year. Panels carry a 25-year product ' +
        'warranty; inverters 10 years; our workmanship 5 years. Installation takes one to three days after the survey.',
      tags: ['residential', 'pv', 'warranty'],
    },
    {
      id: 'batteries',
      title: 'Home batteries and self-consumption',
      body:
        'A battery of 5 to 15 kWh stores midday surplus for the evening and raises self-consumption from about 35% ' +
        'to 70%. Batteries can be added to an existing system. Warranty 10 years or 6 000 cycles.',
      tags: ['battery', 'storage', 'warranty'],
    },
    {
      id: 'process',
      title: 'How a project goes: survey, proposal, installation, registration',
      body:
        'First a site survey (roof, shading, electrical board). Then a priced proposal valid 14 days. After ' +
        'acceptance we install, register the unit with the grid operator (UPAC) and hand over the monitoring access. ' +
        'Payment: 30% on acceptance, 70% on commissioning.',
      tags: ['process', 'price'],
    },
    {
      id: 'public-buildings',
      title: 'Solar on public buildings: tenders we answer',
      body:
        'We answer public tenders for photovoltaic systems on schools, sports halls and municipal buildings (CPV ' +
        '09331200 solar modules, 45261215 solar panel roof-covering work) in our districts.',
      tags: ['public', 'tender', 'procurement'],
    },
  ],
  criteria: {
    project_types: [
      { type: 'residential_solar', label: 'Residential solar', area_m2: { min: 10, max: 200 }, lead_time_days: 21 },
      { type: 'commercial_solar', label: 'Commercial solar', area_m2: { min: 100, max: 5000 }, lead_time_days: 45 },
      { type: 'battery_storage', label: 'Battery storage', lead_time_days: 14 },
    ],
    lead_time_days: 21,
    excluded_places: { municipalities: ['Vila Nova de Gaia'], districts: [] },
  },
  skills: [...SKILL_IDS], // the demo agents show every skill the host offers
  procurement_lookups: true,
  artifacts: [
    {
      id: 'pv-buyers-guide',
      title: 'Buying a home solar system: a short guide',
      summary: 'What to ask, what it costs per kWp, how long it takes to pay back, and what the warranties cover.',
      media_type: 'text/markdown',
      body:
        '# Buying a home solar system\n\n1. Size it on your daytime use, not your whole bill.\n' +
        '2. Expect 1 100 to 1 500 € per kWp installed.\n' +
        '3. Payback is usually 5 to 8 years.\n4. Ask for panel, inverter and workmanship warranties in writing.\n',
      released: true,
    },
    {
      id: 'pricing-2027',
      title: 'Price list 2027 (draft)',
      summary: 'Not released yet.',
      media_type: 'text/markdown',
      body: '# Draft\n',
      released: false,
    },
  ],
  actions: [
    {
      id: 'site_survey',
      title: 'Site survey',
      description:
        'A technician visits the roof and the electrical board and measures shading; the report comes within 5 days.',
      pricing: { base_eur: 90, per_m2_eur: 0, minimum_eur: 90, vat_rate: 0.23, urgent_surcharge_rate: 0.5 },
      quote_valid_days: 14,
      terms: 'The survey fee is deducted from the installation if ordered within 60 days.',
    },
    {
      id: 'installation_proposal',
      title: 'Installation proposal',
      description: 'A priced design for the roof area given: panels, inverter, mounting and registration.',
      pricing: {
        base_eur: 600,
        per_m2_eur: 45,
        minimum_eur: 2500,
        vat_rate: 0.06,
        urgent_surcharge_rate: 0.2,
        outside_area_surcharge_eur: 350,
      },
      quote_valid_days: 14,
      terms: '30% on acceptance, 70% on commissioning. Reduced VAT (6%) for residential solar.',
    },
  ],
};
