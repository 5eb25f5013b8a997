/** Where the data files the project ships live, whether running from `src/` (tests) or `dist/` (built). */
import { fileURLToPath } from 'node:url';

const DATA_DIR = fileURLToPath(new URL('../../data/', import.meta.url));

export function dataFile(name: string): string {
  return DATA_DIR + name;
}
