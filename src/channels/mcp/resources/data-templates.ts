/**
 * The `munidata://` resource templates: each is one read operation of the registry, its URI derived from the
 * operation's REST path without `/v1` (a series: the municipality as one more segment). docs/mcp.md, Resources.
 */

import type { AnyOperation } from '../../../core/operation.js';
import { MAX_LIMIT } from '../../../core/schemas.js';
import { indicatorsGet } from '../../../operations/indicators/indicators-get.js';
import { indicatorsSeries } from '../../../operations/indicators/indicators-series.js';
import { municipalitiesGet } from '../../../operations/municipalities/municipalities-get.js';
import { procurementOcdsRecord } from '../../../operations/procurement/ocds/procurement-ocds-record.js';
import { procurementContractGet } from '../../../operations/procurement/procurement-contract-get.js';
import { procurementEntityProfile } from '../../../operations/procurement/procurement-entity-profile.js';
import { procurementRedFlags } from '../../../operations/procurement/procurement-red-flags.js';
import { signalCasesGet } from '../../../operations/signals/signal-cases-get.js';
import { signalsGet } from '../../../operations/signals/signals-get.js';
import type { ArgumentKind } from '../completion/argument-values.js';
import { UriTemplate } from './uri-template.js';

export const DATA_SCHEME = 'munidata';

export interface DataTemplate {
  readonly uri: UriTemplate;
  /** Its name in `resources/templates/list`. */
  readonly name: string;
  readonly operation: AnyOperation;
  /** What each variable names: where its completions come from. */
  readonly kinds: Readonly<Record<string, ArgumentKind>>;
  /** The operation's input from the variables, as text (the REST path's encoding). */
  readonly input: (variables: Readonly<Record<string, string>>) => Record<string, string>;
}

/** The URI of an operation's REST path: `/v1/municipalities/:code` → `munidata://municipalities/{code}`. */
function uriOf(operation: AnyOperation, suffix: string): UriTemplate {
  const path = operation.rest.path.replace(/^\/v1\//, '').replace(/:([a-z_]+)/g, '{$1}');
  return new UriTemplate(`${DATA_SCHEME}://${path}${suffix}`);
}

function template(
  operation: AnyOperation,
  name: string,
  kinds: Record<string, ArgumentKind>,
  more: { suffix: string; input: DataTemplate['input'] } = { suffix: '', input: (variables) => ({ ...variables }) },
): DataTemplate {
  return Object.freeze({ uri: uriOf(operation, more.suffix), name, operation, kinds, input: more.input });
}

export const DATA_TEMPLATES: readonly DataTemplate[] = [
  template(municipalitiesGet, 'municipality', { code: 'municipality' }),
  template(indicatorsGet, 'indicator', { key: 'indicator' }),
  // One municipality's series: as far as one page goes (MAX_LIMIT points, decades of annual values).
  template(
    indicatorsSeries,
    'indicator_series',
    { key: 'indicator', code: 'municipality' },
    { suffix: '/{code}', input: ({ key, code }) => ({ key, municipality: code, limit: String(MAX_LIMIT) }) },
  ),
  template(procurementContractGet, 'contract', { id: 'none' }),
  template(procurementRedFlags, 'contract_red_flags', { id: 'none' }),
  template(procurementOcdsRecord, 'ocds_record', { ocid: 'none' }),
  template(procurementEntityProfile, 'entity', { nif: 'entity' }),
  template(signalsGet, 'signal', { signal_id: 'none' }),
  template(signalCasesGet, 'signal_case', { case_id: 'none' }),
];

/** The template that produced a URI, and its variables. */
export function matchDataTemplate(uri: string) {
  for (const candidate of DATA_TEMPLATES) {
    const variables = candidate.uri.match(uri);
    if (variables !== undefined) return { template: candidate, variables };
  }
  return undefined;
}

/** The `munidata://` URI of an operation's answer for an input, when a template names exactly that input. */
export function dataResourceUri(operation: AnyOperation, input: Readonly<Record<string, unknown>>): string | undefined {
  const names = Object.keys(input);
  const found = DATA_TEMPLATES.find(
    (t) =>
      t.operation === operation &&
      t.uri.names.length === names.length &&
      t.uri.names.every((name) => ['string', 'number'].includes(typeof input[name])),
  );
  return found?.uri.expand(Object.fromEntries(names.map((name) => [name, String(input[name])])));
}
