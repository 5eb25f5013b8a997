/**
 * Reads the files of a ZIP archive held in memory (the portal publishes each year's contracts as one JSON file in a
 * ZIP): the central directory, then each entry stored or deflated (the two methods such archives use). Enough for
 * `munidata sync base`; an archive in another method, encrypted or spanning disks is refused with the reason.
 */
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

export function isZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes.readUInt32LE(0) === LOCAL_FILE_HEADER;
}

export function readZip(bytes: Buffer): ZipEntry[] {
  const end = findEndOfCentralDirectory(bytes);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (bytes.readUInt32LE(at) !== CENTRAL_FILE_HEADER) throw new Error('ZIP: the central directory is damaged');
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const compressedSize = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const localAt = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (flags & 1) throw new Error(`ZIP: ${name} is encrypted`);
    if (compressedSize === 0xffffffff || size === 0xffffffff)
      throw new Error(`ZIP: ${name} needs ZIP64, which is not read here`);
    if (bytes.readUInt32LE(localAt) !== LOCAL_FILE_HEADER)
      throw new Error(`ZIP: the local header of ${name} is damaged`);
    const dataAt = localAt + 30 + bytes.readUInt16LE(localAt + 26) + bytes.readUInt16LE(localAt + 28);
    const raw = bytes.subarray(dataAt, dataAt + compressedSize);
    if (raw.length !== compressedSize) throw new Error(`ZIP: ${name} is cut short`);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw);
    else throw new Error(`ZIP: ${name} uses compression method ${method}; only stored (0) and deflated (8) are read`);
    if (data.length !== size) throw new Error(`ZIP: ${name} inflates to ${data.length} bytes, not ${size}`);
    entries.push({ name, data });
  }
  return entries;
}

/** The one data file of an archive as the portal publishes them (a ZIP holding one JSON or CSV file). */
export function theDataFileIn(
  bytes: Buffer,
  archiveName: string,
): { bytes: Buffer; name: string; format: 'json' | 'csv' } {
  const all = readZip(bytes);
  // An XLSX workbook is a ZIP too: the portal publishes each year in XLSX beside the JSON.
  if (all.some((e) => e.name === 'xl/workbook.xml')) {
    throw new Error(
      "this is an Excel workbook (XLSX), which is not read: take the year's JSON file, or save the sheet as CSV",
    );
  }
  const entries = all.filter((e) => /\.(json|jsonl|ndjson|csv)$/i.test(e.name));
  if (entries.length !== 1)
    throw new Error(`${archiveName}: expected one JSON or CSV file in the archive, found ${entries.length}`);
  return {
    bytes: entries[0].data,
    name: `${archiveName}:${entries[0].name}`,
    format: /\.csv$/i.test(entries[0].name) ? 'csv' : 'json',
  };
}

function findEndOfCentralDirectory(bytes: Buffer): number {
  // The record is 22 bytes plus a comment of up to 65 535 bytes, at the very end.
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (bytes.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw new Error('ZIP: no central directory (the file is not a ZIP archive, or it is cut short)');
}
