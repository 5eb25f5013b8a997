/**
 * One read of an operation through the core, as resource contents: what `resources/read` answers and what a prompt
 * embeds. The call is the tool's own (validation, plan, scopes, quota; one unit of quota unless the operation is
 * free), its JSON the REST answer, and — for `resources/read` — its CSV beside it where REST has one (a prompt
 * embeds the JSON alone: docs/mcp.md, Prompts). A refusal the table does not answer at the HTTP level becomes the
 * read's JSON-RPC error (errors.ts, readError).
 */
import type { FastifyRequest } from 'fastify';
import type { Admission } from '../../../core/admission.js';
import { buildCharged, type Charge, refundedError } from '../../../core/charge.js';
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
  /** Whether the CSV goes beside the JSON where REST has one. */
  readonly csv: boolean;
}

export interface ReadContents {
  readonly contents: readonly TextContents[];
  /** The monthly quota's state after the read, for the answer's headers. */
  readonly quota: LimitState | undefined;
}

/** A read whose unit is reserved, not yet settled: its caller commits it with its whole answer, or gives it back. */
export interface HeldRead {
  readonly contents: readonly TextContents[];
  /** The JSON answer, parsed (a page's `next_cursor` and `has_more`). */
  readonly value: unknown;
  readonly charge: Charge;
}

/** `resources/read`: one read, committed once its contents are built. */
export async function readContents(
  core: Core,
  admission: Admission,
  read: OperationRead,
  uri: string,
  request: FastifyRequest,
  place: ErrorPlace,
): Promise<ReadContents> {
  const held = await readHeld(core, admission, read, uri, request, place);
  const contents = await asReadError(request, place, uri, () => buildCharged(held.charge, () => held.contents));
  return { contents, quota: held.charge.month };
}

/** One read, its charge left for the caller to settle (a prompt's reads: all or none counted). */
export function readHeld(
  core: Core,
  admission: Admission,
  read: OperationRead,
  uri: string,
  request: FastifyRequest,
  place: ErrorPlace,
): Promise<HeldRead> {
  const csv = read.csv && core.offersCsv(read.operation);
  return asReadError(request, place, uri, async () => {
    const { json, body, value, charge } = await core.execute({
      admission,
      operation: read.operation,
      input: read.input,
      encoding: read.encoding,
      format: csv ? 'csv' : 'json',
      etag: false, // no conditional requests on MCP
      channel: 'mcp',
    });
    try {
      const contents: TextContents[] = [{ uri, mimeType: JSON_TYPE, text: json }];
      if (csv) contents.push({ uri, mimeType: CSV_TYPE, text: body.toString() });
      return { contents, value, charge };
    } catch (error) {
      throw await refundedError(charge, error);
    }
  });
}

/** A refusal as the read's JSON-RPC error, unless the table answers it at the HTTP level. */
async function asReadError<R>(request: FastifyRequest, place: ErrorPlace, uri: string, run: () => Promise<R>) {
  try {
    return await run();
  } catch (error) {
    const apiError = toApiError(error);
    if (isHttpLevel(apiError)) throw apiError;
    logIfInternal(request, apiError);
    throw readError(apiError, place, uri);
  }
}
