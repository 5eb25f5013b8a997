/**
 * One read of an operation through the core, as resource contents: what `resources/read` answers and what a prompt
 * embeds. The call is the tool's own (validation, plan, scopes, quota; one unit of quota unless the operation is
 * free), its JSON the REST answer, and its CSV beside it where REST has one. A refusal the table does not answer at
 * the HTTP level becomes the read's JSON-RPC error (errors.ts, readError).
 */
import type { FastifyRequest } from 'fastify';
import type { Admission } from '../../../core/admission.js';
import { buildCharged } from '../../../core/charge.js';
import type { Core } from '../../../core/core.js';
import type { AnyOperation } from '../../../core/operation.js';
import type { InputEncoding } from '../../../core/validate.js';
import { type ErrorPlace, toApiError } from '../../../lib/errors.js';
import { logIfInternal } from '../../../lib/internal-error-log.js';
import type { LimitState } from '../../../lib/limit-state.js';
import { isHttpLevel, readError } from '../errors.js';

export const JSON_TYPE = 'application/json';
const CSV_TYPE = 'text/csv';

/** One text content of a resource (TextResourceContents). */
export interface TextContents {
  readonly uri: string;
  readonly mimeType: string;
  readonly text: string;
}

export interface OperationRead {
  readonly operation: AnyOperation;
  readonly input: Record<string, unknown>;
  /** `text` for values taken from a URI (as REST takes its path), `json` for typed values. */
  readonly encoding: InputEncoding;
}

export interface ReadContents {
  readonly contents: readonly TextContents[];
  /** The monthly quota's state after the read, for the answer's headers. */
  readonly quota: LimitState | undefined;
}

export async function readContents(
  core: Core,
  admission: Admission,
  read: OperationRead,
  uri: string,
  request: FastifyRequest,
  place: ErrorPlace,
): Promise<ReadContents> {
  const csv = core.offersCsv(read.operation);
  try {
    const { json, body, charge } = await core.execute({
      admission,
      operation: read.operation,
      input: read.input,
      encoding: read.encoding,
      format: csv ? 'csv' : 'json',
      etag: false, // no conditional requests on MCP
      channel: 'mcp',
    });
    // Built inside the charge window: if building fails, the read is refunded.
    const contents = await buildCharged(charge, () => {
      const all: TextContents[] = [{ uri, mimeType: JSON_TYPE, text: json }];
      if (csv) all.push({ uri, mimeType: CSV_TYPE, text: body.toString() });
      return all;
    });
    return { contents, quota: charge.month };
  } catch (error) {
    const apiError = toApiError(error);
    if (isHttpLevel(apiError)) throw apiError;
    logIfInternal(request, apiError);
    throw readError(apiError, place, uri);
  }
}
