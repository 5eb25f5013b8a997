/**
 * The registry: every operation the service offers, in one list. REST routes, A2A skills, MCP tools, the
 * OpenAPI document and the docs page are all derived from it. Adding an operation = one file + one line here.
 */
import type { AnyOperation } from '../core/operation.js';
import { alertMatches } from './alerts/alert-matches.js';
import { alertRules } from './alerts/alert-rules.js';
import { bulkDatasets } from './bulk/bulk-datasets.js';
import { indicatorsGet } from './indicators/indicators-get.js';
import { indicatorsList } from './indicators/indicators-list.js';
import { indicatorsMedians } from './indicators/indicators-medians.js';
import { indicatorsSeries } from './indicators/indicators-series.js';
import { indicatorsSnapshot } from './indicators/indicators-snapshot.js';
import { indicatorsStats } from './indicators/indicators-stats.js';
import { me } from './me/me.js';
import { municipalitiesGet } from './municipalities/municipalities-get.js';
import { municipalitiesIndicators } from './municipalities/municipalities-indicators.js';
import { municipalitiesSearch } from './municipalities/municipalities-search.js';
import { procurementOcdsRecord } from './procurement/ocds/procurement-ocds-record.js';
import { procurementOcdsReleases } from './procurement/ocds/procurement-ocds-releases.js';
import { procurementAggregate } from './procurement/procurement-aggregate.js';
import { procurementAmendments } from './procurement/procurement-amendments.js';
import { procurementAnnouncements } from './procurement/procurement-announcements.js';
import { procurementContractGet } from './procurement/procurement-contract-get.js';
import { procurementContracts } from './procurement/procurement-contracts.js';
import { procurementEntities } from './procurement/procurement-entities.js';
import { procurementEntityProfile } from './procurement/procurement-entity-profile.js';
import { procurementEntityRedFlags } from './procurement/procurement-entity-red-flags.js';
import { procurementLookupEntities } from './procurement/procurement-lookup-entities.js';
import { procurementLookupMunicipalities } from './procurement/procurement-lookup-municipalities.js';
import { procurementRedFlags } from './procurement/procurement-red-flags.js';
import { Registry } from './registry.js';
import { signalCasesGet } from './signals/signal-cases-get.js';
import { signalCasesList } from './signals/signal-cases-list.js';
import { signalFamilies } from './signals/signal-families.js';
import { signalTypes } from './signals/signal-types.js';
import { signalsGet } from './signals/signals-get.js';
import { signalsList } from './signals/signals-list.js';
import { sources } from './sources/sources.js';

export const OPERATIONS: readonly AnyOperation[] = [
  me,
  sources,
  indicatorsList,
  indicatorsGet,
  indicatorsSeries,
  indicatorsSnapshot,
  indicatorsStats,
  indicatorsMedians,
  municipalitiesSearch,
  municipalitiesGet,
  municipalitiesIndicators,
  signalsList,
  signalsGet,
  signalFamilies,
  signalTypes,
  signalCasesList,
  signalCasesGet,
  procurementContracts,
  procurementContractGet,
  procurementRedFlags,
  procurementAggregate,
  procurementEntities,
  procurementEntityProfile,
  procurementEntityRedFlags,
  procurementLookupMunicipalities,
  procurementLookupEntities,
  procurementAnnouncements,
  procurementAmendments,
  procurementOcdsReleases,
  procurementOcdsRecord,
  alertRules,
  alertMatches,
  bulkDatasets,
];

export function createRegistry(operations: readonly AnyOperation[] = OPERATIONS): Registry {
  return new Registry(operations);
}
