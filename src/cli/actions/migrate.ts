/** What `migrate` does (registered in data-commands.ts). */
import { migrate as migrateStore } from '../../admin/migrate.js';
import { describeStore } from '../../store/open-store.js';
import type { CliContext } from '../context.js';
import { migrateText } from '../data-report-text.js';
import { print } from '../output.js';

export function migrate(cli: CliContext): Promise<void> {
  return cli.withStore(
    async (store) => {
      const report = await migrateStore(store);
      print(cli.json(), { migrated: true, ...report }, () => migrateText(describeStore(cli.config), report));
    },
    { migrate: false },
  );
}
