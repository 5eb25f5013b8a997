/** The CLI's readers of number arguments: a bad number is a usage error, exit 2, before anything runs. */
import { InvalidArgumentError } from 'commander';

/** An id or a count: a whole number from 1 (`--account`, `--rpm`, a key id). */
export function positiveInt(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

/** Any finite number (`--above`, `--min-confidence`); an empty text is not 0. */
export function finiteNumber(text: string): number {
  const n = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(n)) throw new InvalidArgumentError('must be a number');
  return n;
}
