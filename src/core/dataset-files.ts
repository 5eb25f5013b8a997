/**
 * The files of the bulk download (docs/api.md, Bulk download): each dataset (datasets.ts) as one CSV file, made
 * page by page as the dataset's operation answers the caller and sent as it is made — never whole in memory.
 *
 * A file is measured once per data version and plan variant (`variantOf`: raw or normalized values, history depth,
 * the day): its rows, how many of them are synthetic, and in each dialect its bytes and a hash of them. The list of
 * datasets shows those; a download of a measured file sends them as `Content-Length` and `ETag`, and is cut — never
 * ended cleanly — when what it sends turns out otherwise (the data moved while it was sent), so that no client keeps
 * a file other than the one announced.
 */
import { createHash } from 'node:crypto';
import type { Caller } from '../access/caller.js';
import { canCall, checkAccess } from '../access/policy.js';
import { ApiError } from '../lib/errors.js';
import { bestMatch, byRelevance } from '../lib/name-match.js';
import type { CsvDialect } from './csv.js';
import { type Dataset, type DatasetReadContext, datasetPages, datasetsOf } from './datasets.js';
import type { AnyOperation } from './operation.js';
import type { ReferenceData } from './reference.js';
import { variantOf } from './response-cache.js';

export const DIALECTS = ['rfc4180', 'excel-pt'] as const satisfies readonly CsvDialect[];

const MAX_SUGGESTIONS = 5;

export interface DatasetMeasure {
  readonly rows: number;
  /** Rows whose `synthetic` is true: generated demo data. */
  readonly syntheticRows: number;
  readonly bytes: Readonly<Record<CsvDialect, number>>;
  /** Strong entity tags: a hash of the file's bytes in each dialect. */
  readonly etags: Readonly<Record<CsvDialect, string>>;
}

/** A measure under way or done; `value` once done, so that a download can tell without waiting. */
interface Measuring {
  readonly promise: Promise<DatasetMeasure>;
  value?: DatasetMeasure;
}

/** The file of a dataset was not the one announced: the answer must be cut. */
export class FileChangedError extends Error {}

export class DatasetFiles {
  readonly all: readonly Dataset[];
  readonly #byName: ReadonlyMap<string, Dataset>;
  /** Named by an unknown dataset's refusal, in the channel's form (docs/api.md, Errors). */
  readonly #listing: AnyOperation | undefined;
  /** Per data version (dropped with it), per dataset and variant. */
  readonly #measures = new WeakMap<ReferenceData, Map<string, Measuring>>();

  constructor(operations: readonly AnyOperation[]) {
    // The operation that lists the datasets is the one whose REST route also downloads them (`bulk_datasets`).
    this.#listing = operations.find((operation) => operation.rest.download !== undefined);
    this.all = datasetsOf(operations);
    this.#byName = new Map(this.all.map((d) => [d.name, d]));
  }

  get(name: string): Dataset | undefined {
    return this.#byName.get(name);
  }

  /**
   * The datasets this caller may download: those whose operation it may call (the plan's domains, the key's scopes,
   * beta).
   */
  forCaller(caller: Caller, betaGates: ReadonlySet<string>): Dataset[] {
    return this.all.filter((d) => canCall(d.operation, caller, betaGates));
  }

  /**
   * The dataset of that name for this caller: 404 with the nearest names among those it may download when there is
   * none, and the refusal of its operation when the caller may not read it (its domain, its scope, beta).
   */
  resolve(name: string, caller: Caller, betaGates: ReadonlySet<string>, baseUrl: string): Dataset {
    const dataset = this.#byName.get(name);
    if (dataset) {
      checkAccess(dataset.operation, caller, betaGates, baseUrl);
      return dataset;
    }
    const available = this.forCaller(caller, betaGates);
    const suggestions = available
      .flatMap((d) => {
        const match = bestMatch(name, [d.name]);
        return match ? [{ ...match, code: d.name, name: d.name }] : [];
      })
      .sort(byRelevance((e) => e.code))
      .slice(0, MAX_SUGGESTIONS)
      .map(({ code }) => ({ code, name: code }));
    const near = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => s.code).join(', ')}?` : '';
    const names = available.map((d) => d.name).join(', ') || 'none';
    throw new ApiError('not-found', {
      detail: `No dataset "${name}".${near} Datasets of this plan: ${names}.`,
      ...(this.#listing === undefined
        ? {}
        : { see: { operation: this.#listing, does: 'lists them with their sizes' } }),
      suggestions,
    });
  }

  /**
   * The dataset's measure as the context's caller reads it: made once per data version and variant, shared while it
   * runs.
   */
  measure(dataset: Dataset, ctx: DatasetReadContext): Promise<DatasetMeasure> {
    const measures = this.#measuresOf(ctx.reference);
    const key = this.#key(dataset, ctx);
    let measuring = measures.get(key);
    if (!measuring) {
      const promise = measureFile(dataset, ctx);
      const entry: Measuring = { promise };
      promise.then(
        (value) => {
          entry.value = value;
        },
        () => measures.delete(key), // the next caller tries again
      );
      measures.set(key, entry);
      measuring = entry;
    }
    return measuring.promise;
  }

  /** The measure when it is known already; a download does not wait for one. */
  measured(dataset: Dataset, ctx: DatasetReadContext): DatasetMeasure | undefined {
    return this.#measuresOf(ctx.reference).get(this.#key(dataset, ctx))?.value;
  }

  /**
   * The file, header first, one chunk a page. Given the measure it was announced with, it throws `FileChangedError`
   * as soon as its bytes would exceed the announced length, and at the end when they fall short of it or when the
   * data version moved while it was read.
   */
  async *file(
    dataset: Dataset,
    ctx: DatasetReadContext,
    dialect: CsvDialect,
    announced?: DatasetMeasure,
  ): AsyncGenerator<Buffer> {
    const length = announced?.bytes[dialect];
    let sent = 0;
    for await (const chunk of fileChunks(dataset, ctx, [dialect])) {
      const bytes = chunk.bytes[0];
      sent += bytes.length;
      if (length !== undefined && sent > length) throw new FileChangedError(`${dataset.name} grew while it was sent`);
      yield bytes;
    }
    if (length !== undefined && sent !== length) throw new FileChangedError(`${dataset.name} shrank while it was sent`);
    if (announced !== undefined && (await ctx.store.dataVersion()) !== ctx.reference.version) {
      throw new FileChangedError(`the data changed while ${dataset.name} was sent`);
    }
  }

  #measuresOf(reference: ReferenceData): Map<string, Measuring> {
    let measures = this.#measures.get(reference);
    if (!measures) {
      measures = new Map();
      this.#measures.set(reference, measures);
    }
    return measures;
  }

  #key(dataset: Dataset, ctx: DatasetReadContext): string {
    return variantOf(dataset.name, ctx.caller.plan, ctx.now.toISOString().slice(0, 10), 'file');
  }
}

/** One piece of a file in each dialect asked for (the header, or a page's rows), and the rows it holds. */
interface Chunk {
  readonly bytes: readonly Buffer[];
  readonly rows: readonly unknown[];
}

/**
 * The file in each of `dialects` side by side, chunk by chunk (the header, then a page's rows): one read of the data
 * serves them all.
 */
export async function* fileChunks(
  dataset: Dataset,
  ctx: DatasetReadContext,
  dialects: readonly CsvDialect[],
): AsyncGenerator<Chunk> {
  yield { bytes: dialects.map((d) => Buffer.from(dataset.table.header(d, dataset.leading))), rows: [] };
  for await (const page of datasetPages(dataset, ctx)) {
    if (page.items.length === 0) continue;
    yield {
      bytes: dialects.map((d) => Buffer.from(dataset.table.rows(page.items, d, page.leading))),
      rows: page.items,
    };
  }
}

async function measureFile(dataset: Dataset, ctx: DatasetReadContext): Promise<DatasetMeasure> {
  const hashes = DIALECTS.map(() => createHash('sha1'));
  const bytes = DIALECTS.map(() => 0);
  let rows = 0;
  let syntheticRows = 0;
  for await (const chunk of fileChunks(dataset, ctx, DIALECTS)) {
    chunk.bytes.forEach((buffer, i) => {
      hashes[i].update(buffer);
      bytes[i] += buffer.length;
    });
    for (const row of chunk.rows) {
      rows++;
      if ((row as { synthetic?: unknown } | null)?.synthetic === true) syntheticRows++;
    }
  }
  const byDialect = <T>(values: T[]) =>
    Object.fromEntries(DIALECTS.map((d, i) => [d, values[i]])) as Record<CsvDialect, T>;
  return {
    rows,
    syntheticRows,
    bytes: byDialect(bytes),
    etags: byDialect(hashes.map((h) => `"${h.digest('base64url')}"`)),
  };
}
