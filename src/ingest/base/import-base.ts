/**
 * `munidata import base-contracts|base-announcements|base-amendments FILE`: the Portal BASE (IMPIC) open-data
 * exports, JSON or CSV, into the procurement tables.
 *
 * The whole file is parsed and every row validated first; then the accepted rows (and the entities they name)
 * go to the store in ONE writeProcurement call — one transaction: on any store error nothing is written.
 * Upserts by (source 'base', source id), so importing the same file again inserts and updates nothing.
 *
 * Every row read ends in exactly one bucket of the report:
 *   rows_read = accepted + rejected.length
 *   accepted  = written.<dataset>.inserted + updated + unchanged (+ orphan_amendments.count for amendments)
 */
import type { AmendmentInput, AnnouncementInput, ContractInput } from '../../store/procurement-records.js';
import type {
  ProcurementBatch,
  ProcurementBatchSummary,
  ProcurementWriteStore,
  ReferenceStore,
} from '../../store/store.js';
import { amendmentFromRow } from './amendments.js';
import { announcementFromRow } from './announcements.js';
import { EntityCollector, type RowContext, UnresolvedPlaces } from './context.js';
import { contractFromRow } from './contracts.js';
import { makePlaceResolver, type PlaceAlias, readPlaceAliases } from './places.js';
import {
  BaseFileError,
  type BaseFormat,
  fieldKey,
  type ParsedFile,
  type RawRecord,
  readBaseFile,
} from './read-file.js';
import { RowReader } from './row.js';

export type { BaseFormat } from './read-file.js';
export { BaseFileError } from './read-file.js';

export type BaseDataset = 'contracts' | 'announcements' | 'amendments';

export type BaseImportStore = ProcurementWriteStore & Pick<ReferenceStore, 'listMunicipalities'>;

export interface BaseImportOptions {
  format: BaseFormat;
  /** Shown in the report. */
  fileName: string;
  /** The import instant (imported_at of every record); now by default. */
  now?: Date | string;
  /** Place aliases (data/base-place-aliases.csv by default). */
  aliases?: readonly PlaceAlias[];
}

export interface BaseRejectedRow {
  /** Physical line where the record starts (CSV: the header is line 1). */
  line: number;
  /** Position of the record in the file (1-based). */
  record: number;
  /** The record's own id when it could be read (idcontrato / nAnuncio). */
  source_id: string | null;
  reason: string;
}

export interface BaseImportReport {
  file: string;
  dataset: BaseDataset;
  format: BaseFormat;
  /** CSV: the delimiter detected. */
  delimiter: string | null;
  imported_at: string;
  rows_read: number;
  accepted: number;
  rejected: BaseRejectedRow[];
  /** What the store did with the accepted rows and the entities they name. */
  written: ProcurementBatchSummary;
  /** Execution places (contracts) that resolve to no municipality nor district: kept as text, counted here. */
  places_unresolved: { count: number; examples: { text: string; line: number; source_id: string }[] };
  /** Amendments whose contract is neither in the store nor in the file: not written. */
  orphan_amendments: { count: number; items: { line: number; source_id: string; contract: string }[] };
}

/** Fields that say what a file is, to refuse e.g. an announcements file given as contracts. */
const SIGNATURE: Record<BaseDataset, { id: string; anyOf: string[] }> = {
  contracts: {
    id: 'idcontrato',
    anyOf: [
      'objectoContrato',
      'adjudicante',
      'adjudicatarios',
      'precoContratual',
      'tipoprocedimento',
      'dataCelebracaoContrato',
      'NIPC_entidade_comunicante',
    ],
  },
  announcements: {
    id: 'nAnuncio',
    anyOf: [
      'nifEntidade',
      'designacaoEntidade',
      'descricaoAnuncio',
      'modeloAnuncio',
      'PrecoBase',
      'CPVs',
      'tipoActo',
      'IdIncm',
      'DataLimitePropostas',
    ],
  },
  amendments: {
    id: 'idcontrato',
    anyOf: [
      'modifContratoData',
      'modifContratoPrecoAlterado',
      'modifContratoFundamento',
      'modifContratoTipoAto',
      'modifDataPublicacao',
    ],
  },
};

export function importBaseContracts(
  store: BaseImportStore,
  input: string | Uint8Array,
  options: BaseImportOptions,
): Promise<BaseImportReport> {
  return importBase('contracts', store, input, options);
}

export function importBaseAnnouncements(
  store: BaseImportStore,
  input: string | Uint8Array,
  options: BaseImportOptions,
): Promise<BaseImportReport> {
  return importBase('announcements', store, input, options);
}

export function importBaseAmendments(
  store: BaseImportStore,
  input: string | Uint8Array,
  options: BaseImportOptions,
): Promise<BaseImportReport> {
  return importBase('amendments', store, input, options);
}

/**
 * @param asked the dataset the file must be, or 'auto' to tell it from the file's fields (`munidata import base`):
 *   modifications have `modifContrato…` fields, contracts an `idcontrato` (and no modification field), announcements
 *   an `nAnuncio` without `idcontrato`.
 */
export async function importBase(
  asked: BaseDataset | 'auto',
  store: BaseImportStore,
  input: string | Uint8Array,
  options: BaseImportOptions,
): Promise<BaseImportReport> {
  const file = readBaseFile(input, options.format);
  const dataset = asked === 'auto' ? datasetOf(file) : asked;
  checkSignature(dataset, file);
  const municipalities = await store.listMunicipalities();
  if (municipalities.length === 0) throw new Error('no municipalities in the store: run `munidata migrate` first');
  const importedAt = instant(options.now ?? new Date());
  const ctx: RowContext = {
    importedAt,
    resolvePlace: makePlaceResolver(municipalities, options.aliases ?? readPlaceAliases()),
    municipalityByNif: new Map(municipalities.filter((m) => m.nif).map((m) => [m.nif, m])),
  };

  const rejected: BaseRejectedRow[] = [];
  const entities = new EntityCollector(ctx.municipalityByNif);
  const places = new UnresolvedPlaces();
  const firstLineOf = new Map<string, number>();
  const slotCounts = new Map<string, number>();
  const contracts: ContractInput[] = [];
  const announcements: AnnouncementInput[] = [];
  const amendments: AmendmentInput[] = [];
  const lineOfAmendment = new Map<string, number>();

  const reject = (raw: RawRecord, sourceId: string | null, reason: string) =>
    rejected.push({ line: raw.line, record: raw.record, source_id: sourceId, reason });
  /** A second record with the same id in one file: the first wins, the repeat is reported. */
  const isRepeat = (raw: RawRecord, idField: string, id: string): boolean => {
    const first = firstLineOf.get(id);
    if (first === undefined) {
      firstLineOf.set(id, raw.line);
      return false;
    }
    reject(raw, id, `${idField} ${id} repeats the record on line ${first}`);
    return true;
  };

  const readRecord = (raw: RawRecord) => {
    const row = new RowReader(raw);
    const idField = SIGNATURE[dataset].id;
    const rawId = sourceIdOf(raw, idField);
    if (dataset === 'contracts') {
      const c = contractFromRow(row, ctx);
      if (!c) reject(raw, rawId, row.errors.join('; '));
      else if (!isRepeat(raw, idField, c.input.source_id)) {
        contracts.push(c.input);
        entities.add(c.parties);
        for (const t of c.unresolvedPlaces) places.add(t, raw.line, c.input.source_id);
      }
    } else if (dataset === 'announcements') {
      const a = announcementFromRow(row, ctx);
      if (!a) reject(raw, rawId, row.errors.join('; '));
      else if (!isRepeat(raw, idField, a.input.source_id)) {
        announcements.push(a.input);
        entities.add(a.parties);
      }
    } else {
      const countOf = (slot: string) => {
        const n = (slotCounts.get(slot) ?? 0) + 1;
        slotCounts.set(slot, n);
        return n;
      };
      const m = amendmentFromRow(row, ctx, countOf);
      if (!m) reject(raw, rawId, row.errors.join('; '));
      else {
        amendments.push(m.input);
        lineOfAmendment.set(m.input.source_id, raw.line);
      }
    }
  };

  for (const raw of file.records) {
    try {
      readRecord(raw);
    } catch (error) {
      // A shape no parser foresaw costs its row, never the file: the row is reported with what went wrong.
      reject(raw, sourceIdOf(raw, SIGNATURE[dataset].id), `the record could not be read: ${(error as Error).message}`);
    }
  }

  const batch: ProcurementBatch = { entities: entities.list(), contracts, announcements, amendments };
  const written = await store.writeProcurement(batch);
  await store.refreshProcurementRollups();

  const amendmentById = new Map(amendments.map((a) => [a.source_id, a]));
  const orphanItems = written.orphan_amendments.map((id) => ({
    line: lineOfAmendment.get(id) ?? 0,
    source_id: id,
    contract: amendmentById.get(id)?.contract_source_id ?? id.split('/')[0],
  }));

  return {
    file: options.fileName,
    dataset,
    format: file.format,
    delimiter: file.delimiter,
    imported_at: importedAt,
    rows_read: file.records.length,
    accepted: contracts.length + announcements.length + amendments.length,
    rejected,
    written,
    places_unresolved: { count: places.count, examples: places.examples },
    orphan_amendments: { count: orphanItems.length, items: orphanItems },
  };
}

function datasetOf(file: ParsedFile): BaseDataset {
  if (file.records.length === 0) throw new BaseFileError('the file holds no records: nothing to import');
  const fits = (dataset: BaseDataset) => {
    const { id, anyOf } = SIGNATURE[dataset];
    const has = (f: string) => file.fields.has(fieldKey(f));
    return has(id) && anyOf.some(has);
  };
  // Most specific first: a contracts file has nAnuncio and idINCM too, so announcements come last.
  const found = (['amendments', 'contracts', 'announcements'] as const).find(fits);
  if (found) return found;
  const seen = file.fieldNames.slice(0, 12).join(', ');
  throw new BaseFileError(
    `this is no BASE file we know: contracts have idcontrato, announcements nAnuncio, ` +
      `modifications idcontrato and modifContratoData (it has: ${seen || 'no fields'})`,
  );
}

function checkSignature(dataset: BaseDataset, file: ParsedFile): void {
  if (file.records.length === 0) return;
  const { id, anyOf } = SIGNATURE[dataset];
  const has = (f: string) => file.fields.has(fieldKey(f));
  if (!has(id) || !anyOf.some(has)) {
    const seen = file.fieldNames.slice(0, 12).join(', ');
    throw new BaseFileError(
      `this does not look like a BASE ${dataset} file: ` +
        `it needs the field ${id} and one of ${anyOf.join(', ')} (it has: ${seen || 'no fields'})`,
    );
  }
}

/** The id a rejected row is reported with: the raw id field, as text, when there is one. */
function sourceIdOf(raw: RawRecord, idField: string): string | null {
  const v = raw.values.get(fieldKey(idField));
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' || t.toUpperCase() === 'NULL' ? null : t;
}

/** RFC 3339 UTC, whole seconds: `2026-07-14T09:30:00Z`. */
function instant(now: Date | string): string {
  const d = typeof now === 'string' ? new Date(now) : now;
  if (Number.isNaN(d.getTime())) throw new Error(`not an instant: ${String(now)}`);
  return `${d.toISOString().slice(0, 19)}Z`;
}
