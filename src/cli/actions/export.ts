/** What `export` does (registered in export-command.ts). */
import { AdminError } from '../../lib/admin-error.js';
import type { CliContext } from '../context.js';
import { EXPORT_FORMATS } from '../export-command.js';
import { exportTables } from '../export-tables.js';
import { print } from '../output.js';

export function exportTo(cli: CliContext, dir: string, o: { format: string; plan: string }): Promise<void> {
  const format = EXPORT_FORMATS.find((f) => f === o.format);
  if (format === undefined)
    throw new AdminError(`--format must be one of ${EXPORT_FORMATS.join(', ')}, not "${o.format}"`);
  return cli.withStore(async (store) => {
    const tables = await exportTables(store, { dir, format, plan: o.plan });
    print(cli.json(), { dir, format: o.format, plan: o.plan, tables }, () =>
      tables.map((t) => `${t.table}: ${t.rows} rows → ${t.file}`).join('\n'),
    );
  });
}
