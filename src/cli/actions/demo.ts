/** What `demo` and `demo remove` do (registered in data-commands.ts). */
import { loadDemo } from '../../demo/load-demo.js';
import type { CliContext } from '../context.js';
import { demoRemovalText, demoText } from '../data-report-text.js';
import { print } from '../output.js';

export function load(cli: CliContext, o: { seed: number; contracts: number }): Promise<void> {
  return cli.withStore(async (store) => {
    const summary = await loadDemo(store, { seed: o.seed, contracts: o.contracts });
    print(cli.json(), summary, () => demoText(summary));
  });
}

export function remove(cli: CliContext): Promise<void> {
  return cli.withStore(async (store) => {
    const removed = await store.removeDemoData();
    print(cli.json(), removed, () => demoRemovalText(removed));
  });
}
