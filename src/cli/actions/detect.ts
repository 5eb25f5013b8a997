/** What `detect` does (registered in signal-commands.ts). */
import { detectAndMatch } from '../../alerts/detect-and-match.js';
import type { CliContext } from '../context.js';
import { detectText } from '../data-report-text.js';
import { print } from '../output.js';

export function detect(cli: CliContext): Promise<void> {
  return cli.withStore(async (store) => {
    const report = await detectAndMatch(store, new Date());
    print(cli.json(), report, () => detectText(report));
  });
}
