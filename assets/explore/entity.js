/**
 * A buyer or a supplier (/explore/entities/{tax number}): the API's profile of it — totals in either role, euros
 * per year, its largest counterparts and latest contracts, each linked to its own page — and, for a buyer, the
 * integrity flags of its contracts (buyer-flags.js).
 */

import { stackedBars } from '../draw/charts.js';
import { ENTITY_ROLES, entityYearRows } from '../draw/entity-years.js';
import { buyerFlags } from './buyer-flags.js';
import {
  chartWidth,
  clear,
  config,
  contractHref,
  entityHref,
  facts,
  figure,
  formatCount,
  formatEuros,
  formatNumber,
  get,
  isSynthetic,
  municipalityLink,
  partyLinks,
  request,
  showError,
  table,
  view,
  yearsAsCovered,
} from './common.js';

async function start() {
  const root = view();
  const req = request(`/v1/procurement/entities/${encodeURIComponent(config.nif)}`);
  try {
    const e = await get(req);
    document.title = `${e.name} — munidata explorer`;
    document.getElementById('title').textContent = e.name;
    const synthetic = e.synthetic ?? isSynthetic(e);
    // A year the contracts held cover only in part says so, as on a municipality's page.
    const { rows: years, notes: yearNotes } = await yearsAsCovered(entityYearRows(e), synthetic);
    const counterparts = [
      ...(e.top_suppliers ?? []).map((p) => ({ ...p, role: 'its supplier' })),
      ...(e.top_buyers ?? []).map((p) => ({ ...p, role: 'its buyer' })),
    ];
    clear(root).append(
      ...[
        figure({
          id: 'entity',
          title: 'Who',
          subtitle: `Tax number ${e.nif} · ${e.kind ?? ''}${e.country ? ` · ${e.country}` : ''}`,
          synthetic,
          requests: [req],
          body: facts([
            ['Municipality', e.municipality ? municipalityLink(e.municipality) : null],
            ['As buyer', `${formatCount(e.contracts_as_buyer, 'contract')}, ${formatEuros(e.total_as_buyer_eur)}`],
            [
              'As supplier',
              `${formatCount(e.contracts_as_supplier, 'contract')}, ${formatEuros(e.total_as_supplier_eur)}`,
            ],
          ]),
        }),
        e.contracts_as_buyer > 0 ? buyerFlags(e) : null,
        years.length
          ? figure({
              id: 'entity-years',
              title: 'Euros per year',
              subtitle: 'Contract prices without VAT, by year of publication, in either role',
              synthetic,
              requests: [req],
              notes: yearNotes,
              body: stackedBars({
                width: chartWidth(),
                height: 260,
                rows: years,
                names: ENTITY_ROLES,
                label: `Contract euros per year of ${e.name}`,
                format: formatEuros,
              }),
              table: table(
                [
                  { label: 'Year', value: (r) => r.label },
                  ...ENTITY_ROLES.map((role, i) => ({
                    label: role,
                    value: (r) => `${formatNumber(r.counts[i], 0)} · ${formatEuros(r.parts[role])}`,
                    numeric: true,
                  })),
                ],
                years,
              ),
            })
          : null,
        counterparts.length
          ? figure({
              id: 'entity-counterparts',
              title: 'Largest counterparts',
              subtitle: 'By euros of the contracts they share',
              synthetic,
              requests: [req],
              body: table(
                [
                  { label: 'Name', value: (p) => p.name, href: (p) => entityHref(p.nif) },
                  { label: 'Role', value: (p) => p.role },
                  { label: 'Contracts', value: (p) => formatNumber(p.count, 0), numeric: true },
                  { label: 'Euros', value: (p) => formatEuros(p.total_eur), numeric: true },
                ],
                counterparts,
                undefined,
                { stack: true },
              ),
            })
          : null,
        figure({
          id: 'entity-contracts',
          title: 'Latest contracts',
          subtitle: 'The latest published, in either role',
          synthetic,
          requests: [req],
          body: table(
            [
              { label: 'Published', value: (c) => c.published_on ?? '—' },
              { label: 'Object', value: (c) => c.object, href: (c) => contractHref(c.id) },
              { label: 'Buyer', value: (c) => partyLinks(c.buyers ?? []) },
              { label: 'Supplier', value: (c) => partyLinks(c.suppliers ?? []) },
              { label: 'Price', value: (c) => formatEuros(c.price_eur), numeric: true },
            ],
            e.recent_contracts ?? [],
            undefined,
            { stack: true },
          ),
        }),
      ].filter(Boolean),
    );
  } catch (error) {
    showError(root, error);
  }
  root.setAttribute('data-ready', 'true');
}

start();
