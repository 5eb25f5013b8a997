/** The bulk download's request and answer as the core sees them (docs/api.md, Bulk download). */
import type { UsageChannel } from '../store/console/console-records.js';
import type { Admission } from './admission.js';
import type { Charge } from './charge.js';
import type { Dataset } from './datasets.js';
import type { FileFormat } from './execution.js';
import type { AnyOperation } from './operation.js';

export interface DownloadRequest {
  readonly admission: Admission;
  /** The operation whose `rest.download` route was asked: its domain, scope and beta gate guard every file. */
  readonly operation: AnyOperation;
  readonly dataset: string;
  readonly format: FileFormat;
  readonly ifNoneMatch?: string;
  /** As `ExecuteRequest.channel`. */
  readonly channel?: UsageChannel;
}

/** One dataset's file, as `download` hands it to the channel to send; then the channel settles its charge. */
export interface Download {
  readonly dataset: Dataset;
  readonly format: FileFormat;
  /** Its length in bytes, known once it was measured for this data version (listing the datasets measures them). */
  readonly size: number | undefined;
  /** A hash of its bytes, known with `size`. */
  readonly etag: string | undefined;
  /** The caller's `If-None-Match` matched `etag`: answer 304; its charge is already given back. */
  readonly notModified: boolean;
  /** The file's bytes (none on a 304); they throw when the answer must be cut (the data moved, the store failed). */
  readonly body: AsyncIterable<Buffer>;
  readonly charge: Charge;
}

export async function* noBytes(): AsyncGenerator<Buffer> {}
