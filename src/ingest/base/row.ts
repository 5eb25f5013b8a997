/**
 * Reading one record's fields with validation: each failed field adds `<field>: <what is wrong>` to the row's
 * errors and reads as null, so one pass collects every problem of the row.
 */
import { fieldKey, type RawRecord } from './read-file.js';
import { FieldError, items } from './values.js';

export class RowReader {
  readonly errors: string[] = [];

  constructor(readonly raw: RawRecord) {
    if (raw.problem) this.errors.push(raw.problem);
  }

  /** The raw value of the first of these fields the record has (names are matched loosely). */
  value(...fields: string[]): unknown {
    for (const f of fields) {
      const v = this.raw.values.get(fieldKey(f));
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** Parses a field; on a FieldError records `<field>: <message>` and returns null. */
  read<T>(field: string | string[], parse: (value: unknown) => T | null): T | null {
    const fields = Array.isArray(field) ? field : [field];
    try {
      return parse(this.value(...fields));
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      this.errors.push(`${fields[0]}: ${error.message}`);
      return null;
    }
  }

  /**
   * Parses every item of a multi-valued field (see `items`: a JSON array, or a flattened cell); a bad item is an
   * error of the field (all are listed). A value that is no list of texts at all (an array of objects) is one error
   * of the field too: the row is rejected, the import goes on.
   */
  readEach<T>(field: string, looksLikeItem: (piece: string) => boolean, parse: (item: string) => T): T[] {
    let pieces: string[];
    try {
      pieces = items(this.value(field), looksLikeItem);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      this.errors.push(`${field}: ${error.message}`);
      return [];
    }
    const out: T[] = [];
    for (const v of pieces) {
      try {
        out.push(parse(v));
      } catch (error) {
        if (!(error instanceof FieldError)) throw error;
        this.errors.push(`${field}: ${error.message}`);
      }
    }
    return out;
  }

  fail(message: string): void {
    this.errors.push(message);
  }
}
