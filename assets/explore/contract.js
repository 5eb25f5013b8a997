/**
 * A contract (/explore/contracts/{id}): the API's record of it — what was bought, by whom and from whom (each
 * party linked to its page), where it is executed, the prices and dates, its CPV codes and amendments, and the
 * published record it comes from; and its integrity flags, each type in one of three states with the reason.
 */
import {
  clear,
  config,
  facts,
  figure,
  formatExactEuros,
  get,
  h,
  isSynthetic,
  municipalityLink,
  partyLinks,
  reasonText,
  request,
  showError,
  table,
  view,
} from './common.js';
import { CAUTION, methodHref, STATE_WORDS } from './flags.js';

async function start() {
  const root = view();
  const req = request(`/v1/procurement/contracts/${encodeURIComponent(config.id)}`);
  const flagsReq = request(`/v1/procurement/contracts/${encodeURIComponent(config.id)}/red-flags`);
  try {
    const [c, flags] = await Promise.all([get(req), get(flagsReq)]);
    const name = c.object ?? `Contract ${c.id}`;
    document.title = `${name} — munidata explorer`;
    document.getElementById('title').textContent = name;
    const places = (c.municipalities ?? []).map(municipalityLink).filter(Boolean);
    clear(root).append(
      ...[
        figure({
          id: 'contract',
          title: 'The contract',
          subtitle: `${c.procedure_type ?? 'Procedure not given'} · published ${c.published_on ?? '—'}`,
          synthetic: c.synthetic ?? isSynthetic(c),
          requests: [req],
          body: facts([
            ['Buyer', partyLinks(c.buyers ?? [])],
            ['Supplier', partyLinks(c.suppliers ?? [])],
            [
              'Executed in',
              places.length
                ? h(
                    'span',
                    {},
                    places.flatMap((a, i) => [i > 0 ? ', ' : null, a]),
                  )
                : 'no municipality given',
            ],
            ['Price', c.price_eur === null ? null : `${formatExactEuros(c.price_eur)} (without VAT)`],
            ['Base price', c.base_price_eur === null ? null : formatExactEuros(c.base_price_eur)],
            ['Effective price', c.effective_price_eur === null ? null : formatExactEuros(c.effective_price_eur)],
            ['Procedure', c.procedure_type],
            ['Contract type', (c.contract_types ?? []).join(', ')],
            ['Legal basis', c.legal_basis],
            ['Awarded', c.awarded_on],
            ['Signed', c.signed_on],
            ['Published', c.published_on],
            [
              'Execution',
              c.execution_days === null || c.execution_days === undefined ? null : `${c.execution_days} days`,
            ],
            ['Closed', c.closed_on],
            ['Description', c.description !== c.object ? c.description : null],
            // A generated contract's link is the demo's invented address, which no browser can open.
            [
              'Published record',
              (c.synthetic ?? isSynthetic(c))
                ? 'none: the demo generated this contract'
                : c.link && h('a', { href: c.link, rel: 'noopener' }, c.link),
            ],
          ]),
          table: (c.cpv ?? []).length
            ? table(
                [
                  { label: 'CPV', value: (r) => r.code },
                  { label: 'What', value: (r) => r.label_en ?? r.label_pt ?? '' },
                ],
                c.cpv,
                'CPV codes of the contract',
              )
            : null,
        }),
        (c.amendments ?? []).length
          ? figure({
              id: 'amendments',
              title: 'Amendments',
              synthetic: c.synthetic ?? isSynthetic(c),
              requests: [],
              body: table(
                Object.keys(c.amendments[0]).map((key) => ({
                  label: key.replaceAll('_', ' '),
                  value: (a) =>
                    typeof a[key] === 'number' && key.endsWith('_eur')
                      ? formatExactEuros(a[key])
                      : String(a[key] ?? '—'),
                })),
                c.amendments,
                undefined,
                { stack: true },
              ),
            })
          : null,
        integrityFigure(flags, flagsReq),
      ].filter(Boolean),
    );
  } catch (error) {
    showError(root, error);
  }
  root.setAttribute('data-ready', 'true');
}

/** Every integrity type's state for this contract, with why: docs/integrity.md says how each is judged. */
function integrityFigure(flags, req) {
  const { flagged, not_flagged: passed, not_assessable: unknown } = flags.counts;
  return figure({
    id: 'integrity',
    title: 'Integrity flags',
    subtitle: `${flagged} flagged, ${passed} not flagged, ${unknown} not assessable. ${CAUTION}`,
    synthetic: flags.synthetic,
    requests: [req],
    body: table(
      [
        { label: 'Type', value: (a) => `${a.label_en} (${a.code})`, href: (a) => methodHref(a.type) },
        { label: 'State', value: (a) => STATE_WORDS[a.state] ?? a.state },
        { label: 'Why', value: (a) => reasonText(a) },
        { label: 'Legal basis', value: (a) => a.legal_basis ?? '—' },
      ],
      flags.assessments,
      'Each integrity type, its state for this contract and why',
      // On a phone each type becomes a block of labelled lines, as the other tables of the page do.
      { stack: true },
    ),
  });
}

start();
